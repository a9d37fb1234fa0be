/*
 * Prints the size and alignment of every type include/mrtr.h declares with a
 * body, one "NAME size N align M" line each, sorted by name; scripts/test-c
 * compares them with the Rust definitions' layout on the same target
 * (ffi/src/layout.rs). Lines starting with "#" first describe the target's C
 * ABI: byte order, the signedness of char, widths and alignments of the basic
 * types.
 *
 * layout_table.h is made at test time from the header: one LAYOUT(name) line
 * per type.
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mrtr.h"

#define BASIC(t) printf("# %-9s size %zu align %zu\n", #t, sizeof(t), alignof(t))
#define LAYOUT(t) printf("%s size %zu align %zu\n", #t, sizeof(t), alignof(t));

int main(void) {
    const uint16_t probe = 0x0102;
    const unsigned char *first = (const unsigned char *)&probe;
    printf("# byte order: %s-endian\n", *first == 0x02 ? "little" : "big");
    printf("# char: %s\n", (char)-1 < 0 ? "signed" : "unsigned");
    BASIC(int);
    BASIC(long);
    BASIC(long long);
    BASIC(size_t);
    BASIC(void *);
    BASIC(int64_t);
    BASIC(double);
#include "layout_table.h"
    return 0;
}
