// Only the header matters: LLVMFuzzerRunDriver lives in libFuzzer. A C target needs a source file.
#include "CFuzzDriver.h"
