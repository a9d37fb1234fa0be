package dev.mrtr

import kotlinx.coroutines.runBlocking
import kotlin.system.exitProcess

/**
 * A minimal test runner (the Kotlin compiler package ships kotlin-test but not
 * JUnit): each suite registers named tests; every test runs, failures are
 * collected, and the last line is `N passed, M failed`. Exit status 1 on any
 * failure. Arguments filter tests by substring.
 */
class Tests {
    private val cases = mutableListOf<Pair<String, suspend () -> Unit>>()
    fun test(name: String, body: suspend () -> Unit) { cases += name to body }

    fun run(filters: List<String>): Pair<Int, Int> {
        var passed = 0
        var failed = 0
        for ((name, body) in cases) {
            if (filters.isNotEmpty() && filters.none { name.contains(it) }) continue
            try {
                runBlocking { body() }
                passed++
                println("ok   $name")
            } catch (t: Throwable) {
                failed++
                println("FAIL $name: $t")
                t.stackTrace.take(6).forEach { println("       at $it") }
            }
        }
        return passed to failed
    }
}

fun main(args: Array<String>) {
    val t = Tests()
    registerStatusTests(t)
    registerCallTests(t)
    registerVectorTests(t)
    registerFlowTests(t)
    registerMisuseTests(t)
    registerReasonTests(t)
    registerServerTests(t)
    registerTaskTests(t)
    registerPerfTests(t)
    val (p, f) = t.run(args.toList())
    println("$p passed, $f failed")
    exitProcess(if (f == 0 && p > 0) 0 else 1)
}
