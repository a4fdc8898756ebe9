#ifndef MOTUS_CFUZZDRIVER_H
#define MOTUS_CFUZZDRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry for programs that have their own `main` (SwiftPM gives every executable
/// one): parses libFuzzer's flags from argv and runs `callback` on each input. Provided by
/// libFuzzer when the program is linked with -sanitize=fuzzer.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
