package dev.mrtr

/**
 * A small JSON reader for the tests only (the JDK has none): it reads the vector files and
 * the requests the library writes, keeping each value's raw byte span so a vector's
 * `message` is fed exactly as written in its file. Not a validator: the files are valid.
 */
sealed class J {
    var start = 0
    var end = 0
    data class Obj(val members: List<Pair<String, J>>) : J() {
        operator fun get(k: String): J? = members.firstOrNull { it.first == k }?.second
    }
    data class Arr(val items: List<J>) : J()
    data class Str(val value: String) : J()
    data class Num(val text: String) : J()
    data class Bool(val value: Boolean) : J()
    object Null : J()

    fun raw(src: ByteArray): ByteArray = src.copyOfRange(start, end)
    val str: String? get() = (this as? Str)?.value
    val obj: Obj? get() = this as? Obj
    val long: Long? get() = (this as? Num)?.text?.toLongOrNull()

    companion object {
        fun parse(src: ByteArray): J {
            val r = Reader(src)
            val v = r.value()
            r.ws()
            require(r.i == src.size) { "trailing bytes at ${r.i}" }
            return v
        }
        fun parse(s: String): J = parse(s.toByteArray(Charsets.UTF_8))
    }

    private class Reader(val b: ByteArray) {
        var i = 0
        var depth = 0
        fun ws() { while (i < b.size && b[i].toInt().toChar() in " \t\r\n") i++ }
        fun value(): J {
            ws()
            val s = i
            val v: J = when (b[i].toInt().toChar()) {
                '{' -> obj()
                '[' -> arr()
                '"' -> Str(string())
                't' -> { i += 4; Bool(true) }
                'f' -> { i += 5; Bool(false) }
                'n' -> { i += 4; Null }
                else -> num()
            }
            if (v !== Null) { v.start = s; v.end = i }
            return v
        }
        fun enter() { require(++depth <= 64) { "test reader: nested deeper than 64" } }
        fun obj(): J {
            enter()
            i++
            val m = mutableListOf<Pair<String, J>>()
            ws()
            if (b[i].toInt().toChar() == '}') { i++; depth--; return Obj(m) }
            while (true) {
                ws(); val k = string(); ws(); i++ // ':'
                m += k to value(); ws()
                if (b[i++].toInt().toChar() == '}') { depth--; return Obj(m) }
            }
        }
        fun arr(): J {
            enter()
            i++
            val a = mutableListOf<J>()
            ws()
            if (b[i].toInt().toChar() == ']') { i++; depth--; return Arr(a) }
            while (true) {
                a += value(); ws()
                if (b[i++].toInt().toChar() == ']') { depth--; return Arr(a) }
            }
        }
        fun num(): J {
            val s = i
            while (i < b.size && b[i].toInt().toChar() in "+-0123456789.eE") i++
            return Num(String(b, s, i - s, Charsets.US_ASCII))
        }
        fun string(): String {
            i++ // '"'
            val out = java.io.ByteArrayOutputStream()
            while (true) {
                val c = b[i++].toInt() and 0xff
                when {
                    c == '"'.code -> return String(out.toByteArray(), Charsets.UTF_8)
                    c == '\\'.code -> {
                        when (val e = b[i++].toInt().toChar()) {
                            'n' -> out.write('\n'.code); 't' -> out.write('\t'.code); 'r' -> out.write('\r'.code)
                            'b' -> out.write(8); 'f' -> out.write(12); '/' -> out.write('/'.code)
                            '\\' -> out.write('\\'.code); '"' -> out.write('"'.code)
                            'u' -> {
                                var cp = hex4()
                                if (cp in 0xD800..0xDBFF && b[i].toInt().toChar() == '\\' && b[i + 1].toInt().toChar() == 'u') {
                                    i += 2
                                    val lo = hex4()
                                    cp = 0x10000 + ((cp - 0xD800) shl 10) + (lo - 0xDC00)
                                }
                                out.write(String(Character.toChars(cp)).toByteArray(Charsets.UTF_8))
                            }
                            else -> error("bad escape $e")
                        }
                    }
                    else -> out.write(c)
                }
            }
        }
        fun hex4(): Int {
            val v = String(b, i, 4, Charsets.US_ASCII).toInt(16)
            i += 4
            return v
        }
    }
}
