package dev.mrtr

import java.nio.ByteBuffer

/**
 * The native surface: one function per C function of `include/mrtr.h`, in the
 * header's order, implemented in `jni/mrtr_jni.c`. Each returns the C status
 * (an `Int`) and writes outputs into the arrays it is given; the layout of
 * every `LongArray` output is documented at its function. Nothing here throws
 * for a status: the typed layer ([MrtrCall], [Mrtr], ...) does.
 *
 * Loading: `System.loadLibrary("mrtr_jni")` (Android: the jniLibs the Gradle
 * build packs), or the absolute path in the system property `mrtr.jni.path`.
 */
internal object Native {
    init {
        val path = System.getProperty("mrtr.jni.path")
        if (path != null) System.load(path) else System.loadLibrary("mrtr_jni")
    }

    // Workspaces: zeroed native memory behind a direct ByteBuffer, freed (and wiped) by wsFree.
    @JvmStatic external fun wsAlloc(size: Long): ByteBuffer?
    @JvmStatic external fun wsFree(ws: ByteBuffer?): Int

    // Library information.
    @JvmStatic external fun version(): String
    @JvmStatic external fun protocolVersion(): String
    @JvmStatic external fun statusStr(status: Int): String

    /** out[0]: error offset on ERR_JSON / ERR_LIMIT_EXCEEDED. */
    @JvmStatic external fun jsonValidate(json: ByteArray?, off: Int, len: Int, maxDepth: Long, out: LongArray?): Int

    /** written[0]: bytes written, or needed on ERR_BUFFER_TOO_SMALL. */
    @JvmStatic external fun jsonWriteString(text: ByteArray?, out: ByteArray?, written: LongArray?): Int
}

/**
 * Runs a C writer that follows the header's output convention: first into a
 * buffer of [guess] bytes, then, on `MRTR_ERR_BUFFER_TOO_SMALL`, once more into
 * one of exactly the size the library reported. Returns the bytes written.
 */
internal inline fun writeOut(what: String, guess: Int, f: (ByteArray, LongArray) -> Int): ByteArray {
    val written = LongArray(1)
    var buf = ByteArray(guess)
    var st = f(buf, written)
    if (st == Status.ERR_BUFFER_TOO_SMALL.code) {
        val need = written[0]
        if (need < 0 || need > Int.MAX_VALUE - 8) throw exceptionFor(Status.ERR_LIMIT_EXCEEDED.code, what)
        buf = ByteArray(need.toInt())
        st = f(buf, written)
    }
    check(st, what)
    val n = written[0]
    if (n < 0 || n > buf.size) throw exceptionFor(Status.ERR_INTERNAL.code, what)
    return if (n.toInt() == buf.size) buf else buf.copyOf(n.toInt())
}
