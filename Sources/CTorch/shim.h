// Intentionally empty: TorchBridge.cpp includes libtorch's C++ headers
// itself. This system-library module exists for its pkg-config flags.
