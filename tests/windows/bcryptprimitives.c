/*
 * A stand-in for bcryptprimitives.dll, for running Rust test programs under
 * wine only. Rust's standard library for Windows (1.78 and later) imports
 * ProcessPrng from bcryptprimitives.dll, which Windows 10 and 11 have and
 * Debian 12's wine 8 lacks, so a Rust test executable does not even load
 * there. scripts/test-c builds this next to the test executables of the
 * x86_64-pc-windows-gnu target. It is never part of the library: mrtr is
 * no_std and draws no randomness.
 */
#include <windows.h>
#define SystemFunction036 NTAPI SystemFunction036
#include <ntsecapi.h>
#undef SystemFunction036

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x10000000u ? 0x10000000u : (ULONG)len;
        if (!RtlGenRandom(data, n)) {
            return FALSE;
        }
        data += n;
        len -= n;
    }
    return TRUE;
}
