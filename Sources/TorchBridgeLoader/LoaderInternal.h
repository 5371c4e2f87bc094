// What the loader's files share; not part of the module's interface.
#ifndef DIGITS_TORCH_BRIDGE_LOADER_INTERNAL_H
#define DIGITS_TORCH_BRIDGE_LOADER_INTERNAL_H

#include "TorchBridgeLoader.h"

#include <stdbool.h>
#include <stddef.h>

/// Whether the TorchBridge functions are linked into this program (weak
/// references that the static linker resolved).
bool DigitsTorchBridgeIsLinkedIn(void);

/// The library path chosen by the search in TorchBridgeLoader.h (steps 1-4),
/// or NULL when none of those exists. `where`, if not NULL, receives the
/// places looked at, for messages ("DIGITS_TORCH_BRIDGE=...", or the
/// folders); a static string. Computed once.
const char *DigitsTorchBridgeLocate(const char **where);

#endif
