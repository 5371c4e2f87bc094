// TorchBridge: a plain C interface over libtorch's TorchScript runtime
// (torch::jit), so that Swift can run a digit model without C++ interop.
//
// Why a C shim: Swift cannot catch C++ exceptions, and libtorch reports every
// failure (a bad file, a shape mismatch, a model that raises) by throwing.
// Every function below catches `std::exception` and `...` inside the bridge
// and turns them into a TBStatus plus a message; nothing C++ crosses this
// header, and no libtorch type appears in it.
//
// Ownership:
// - A TBModule is created by TBModuleInitWithFileAtPath and owned by the
//   caller, who releases it with TBModuleFree (which accepts NULL).
// - Error messages are returned through `outMessage` as NUL-terminated
//   strings allocated with malloc; the caller releases them with
//   TBMessageFree (which accepts NULL). Pass NULL for `outMessage` to not
//   receive one. On success, *outMessage is set to NULL.
// - Input and output buffers stay owned by the caller; the bridge neither
//   keeps nor frees them.
//
// Threads: a loaded TBModule may be used from several threads at once; each
// call runs under c10::InferenceMode and does not change the module.

#ifndef TORCH_BRIDGE_H
#define TORCH_BRIDGE_H

#include <stddef.h>

// Nullability annotations are clang's (Swift reads them); other compilers,
// such as gcc building the bridge through CMake, see them as nothing.
#if !defined(__clang__)
#define _Nonnull
#define _Nullable
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Width and height of the image a digit model reads.
#define TB_IMAGE_SIDE 28
/// Floats in one image: 1 channel x 28 x 28.
#define TB_IMAGE_FLOATS (TB_IMAGE_SIDE * TB_IMAGE_SIDE)
/// Scores a digit model returns per image: one per digit 0-9.
#define TB_CLASS_COUNT 10
/// Scores a digit model with a rejection class returns per image: the ten
/// digits, then "not a digit" (a letter, a symbol, a scribble).
#define TB_CLASS_COUNT_WITH_REJECTION 11

/// Shortest and longest side of the picture an ink locator is given.
#define TB_LOCATOR_MIN_SIDE 16
#define TB_LOCATOR_MAX_SIDE 256

/// Height of the image a line model reads (a run of digits); its width varies.
#define TB_LINE_HEIGHT 28
/// Narrowest and widest line image a line model is given.
#define TB_LINE_MIN_WIDTH 8
#define TB_LINE_MAX_WIDTH 4096
/// Scores a line model returns per frame: CTC's blank first, then digits 0-9.
#define TB_LINE_CLASS_COUNT 11

/// The revision of the functions and types below. The bridge is built as a
/// shared library (libDigitsTorchBridge.so) that DigitKit opens on first use;
/// TBBridgeInterfaceVersion lets it refuse a library built from another
/// revision of this header instead of calling it with the wrong arguments.
/// Raise it with every change to a signature or a meaning below.
#define TB_BRIDGE_INTERFACE_VERSION 5

/// The bridge library carries the libtorch version it was built against as
/// the NUL-terminated string TB_BUILD_INFO_PREFIX followed by the version
/// ("digits-torch-bridge-libtorch=1.13.1"), so a program can name that
/// version without loading libtorch (digits --version reads the file).
#define TB_BUILD_INFO_PREFIX "digits-torch-bridge-libtorch="

/// Outcome of a bridge call. Stable values: Swift maps them to error codes.
typedef enum TBStatus {
    TBStatusOK = 0,
    /// A NULL or out-of-range argument (a programming error in the caller).
    TBStatusInvalidArgument = 1,
    /// The file could not be read or is not a TorchScript archive this
    /// libtorch can load (missing, empty, corrupt, or saved by a newer PyTorch).
    TBStatusLoadFailed = 2,
    /// The file loaded but is not a digit model: its probe forward on a
    /// [1, 1, 28, 28] tensor raised or did not return a float [1, 10] or
    /// [1, 11] tensor (for a line model: on a [1, 1, 28, 32] tensor, a float
    /// [1, T, 11] tensor with 1 <= T <= 32; for an ink locator: on a
    /// [1, 1, 64, 64] tensor, a float [1, 1, 64, 64] tensor).
    TBStatusNotADigitModel = 3,
    /// A forward pass raised (the model's own code failed at run time), or
    /// returned scores that are not finite numbers (NaN or infinity).
    TBStatusInferenceFailed = 4,
    /// libtorch could not allocate memory.
    TBStatusOutOfMemory = 5,
    // Why a model file could not be loaded, where that can be told (all
    // reported by TBModuleInitWithFileAtPath; TBStatusLoadFailed otherwise):
    /// The file is not a zip archive (TorchScript files are).
    TBStatusNotAnArchive = 6,
    /// A zip archive, but not one PyTorch wrote (it has no version record).
    TBStatusNotAPyTorchArchive = 7,
    /// A PyTorch archive written by torch.save (a state dict or a pickled
    /// module): it has data.pkl but no TorchScript code (constants.pkl).
    TBStatusSavedWithTorchSave = 8,
    /// Written by a newer PyTorch: its file format version is above the most
    /// this libtorch reads (the message gives both numbers).
    TBStatusNewerFileFormat = 9,
    /// The TorchScript code uses an operator or type this libtorch does not
    /// have (usually: exported by a newer PyTorch).
    TBStatusUnknownOperator = 10,
} TBStatus;

/// A loaded TorchScript digit model. Opaque: only the bridge looks inside.
typedef struct TBModule TBModule;

/// Loads the TorchScript file at `path`, switches it to eval mode and checks
/// it with one probe forward on a zero [1, 1, 28, 28] tensor, which must
/// return TB_CLASS_COUNT or TB_CLASS_COUNT_WITH_REJECTION scores.
///
/// On success stores a new module in *outModule (to be released with
/// TBModuleFree) and returns TBStatusOK. On failure stores NULL in
/// *outModule and, if `outMessage` is not NULL, a one-line message.
/// `path` and `outModule` must not be NULL.
TBStatus TBModuleInitWithFileAtPath(const char *_Nonnull path,
                                    TBModule *_Nullable *_Nonnull outModule,
                                    char *_Nullable *_Nullable outMessage);

/// The number of scores a loaded digit model returns per image:
/// TB_CLASS_COUNT, or TB_CLASS_COUNT_WITH_REJECTION for a model whose last
/// score is "not a digit"; 0 for NULL. Size the output buffers of the two
/// functions below by it.
int TBModuleClassCount(const TBModule *_Nullable module);

/// 1 when a loaded module runs frozen and optimized for inference (batch
/// norms folded into the convolutions, their weights packed once); 0 when it
/// runs as it was saved (a model saved frozen, one libtorch cannot optimize,
/// or one whose optimized form did not answer a patterned input as the
/// saved form does), and for NULL. The scores are the
/// same either way to float rounding; only the time is not. Any of the three
/// init functions' modules.
int TBModuleIsOptimized(const TBModule *_Nullable module);

/// Runs one image: `pixels` holds TB_IMAGE_FLOATS contiguous float32 values
/// (row-major 28x28, already normalized); `logProbabilities` receives
/// TBModuleClassCount(module) values, the log_softmax of the model's output
/// (so a model that returns raw logits works too). No argument may be NULL.
TBStatus TBModulePredictImage(const TBModule *_Nonnull module,
                              const float *_Nonnull pixels,
                              float *_Nonnull logProbabilities,
                              char *_Nullable *_Nullable outMessage);

/// Runs `count` images in one forward pass: `pixels` holds
/// count * TB_IMAGE_FLOATS floats, `logProbabilities` receives
/// count * TBModuleClassCount(module). `count` must be at least 1.
TBStatus TBModulePredictImages(const TBModule *_Nonnull module,
                               const float *_Nonnull pixels,
                               size_t count,
                               float *_Nonnull logProbabilities,
                               char *_Nullable *_Nullable outMessage);

/// Loads a line model: a TorchScript model that reads a run of digits in
/// one picture TB_LINE_HEIGHT pixels high and of any width (see
/// Models/train_line.py). Checks it with one probe forward on a zero
/// [1, 1, 28, 32] tensor, which must return a float [1, T, 11] tensor, one
/// row of scores per frame (a few columns) with 1 <= T <= 32. Ownership and
/// failures as for TBModuleInitWithFileAtPath; release it with
/// TBModuleFree. A line module is not a digit module: pass it only to
/// TBLineModuleRead.
TBStatus TBLineModuleInitWithFileAtPath(const char *_Nonnull path,
                                        TBModule *_Nullable *_Nonnull outModule,
                                        char *_Nullable *_Nullable outMessage);

/// Runs one line image: `pixels` holds TB_LINE_HEIGHT * width contiguous
/// float32 values (row-major, normalized as a digit image), with width
/// between TB_LINE_MIN_WIDTH and TB_LINE_MAX_WIDTH. `logProbabilities` has
/// room for `capacity` floats and receives frames * TB_LINE_CLASS_COUNT
/// values, the log_softmax over the classes of each frame, frame by frame;
/// *outFrames receives the number of frames. A model that returns more
/// frames than fit in `capacity`, or than the image has columns, fails
/// with TBStatusInferenceFailed. No pointer may be NULL.
TBStatus TBLineModuleRead(const TBModule *_Nonnull module,
                          const float *_Nonnull pixels,
                          size_t width,
                          float *_Nonnull logProbabilities,
                          size_t capacity,
                          size_t *_Nonnull outFrames,
                          char *_Nullable *_Nullable outMessage);

/// Loads an ink locator: a TorchScript model that maps a grey picture to the
/// probability, per pixel, that it is the ink of the picture's subject (a
/// digit or another character) rather than paper, lines, shadow or frame
/// (see Models/train_locator.py). Checks it with one probe forward on a zero
/// [1, 1, 64, 64] tensor, which must return a float [1, 1, 64, 64] tensor.
/// Ownership and failures as for TBModuleInitWithFileAtPath; release it
/// with TBModuleFree. Pass it only to TBLocatorModuleLocate.
TBStatus TBLocatorModuleInitWithFileAtPath(const char *_Nonnull path,
                                           TBModule *_Nullable *_Nonnull outModule,
                                           char *_Nullable *_Nullable outMessage);

/// Runs one picture: `pixels` holds height * width float32 grey levels from
/// 0 (black) to 1 (white), row-major, each side between TB_LOCATOR_MIN_SIDE
/// and TB_LOCATOR_MAX_SIDE and a multiple of 8. `probabilities` receives
/// height * width values from 0 to 1. A model that returns another shape,
/// or values outside 0-1 or not finite, fails with TBStatusInferenceFailed.
/// No pointer may be NULL.
TBStatus TBLocatorModuleLocate(const TBModule *_Nonnull module,
                               const float *_Nonnull pixels,
                               size_t width,
                               size_t height,
                               float *_Nonnull probabilities,
                               char *_Nullable *_Nullable outMessage);

/// Releases a module. Accepts NULL.
void TBModuleFree(TBModule *_Nullable module);

/// Releases a message returned through an `outMessage` argument. Accepts NULL.
void TBMessageFree(char *_Nullable message);

/// Sets the number of threads libtorch uses inside one operator (intra-op
/// parallelism) for the whole process, and OpenBLAS's pool to the same
/// count when libtorch uses OpenBLAS. `count` must be at least 1.
TBStatus TBSetThreadCount(int count, char *_Nullable *_Nullable outMessage);

/// The intra-op thread count in force.
int TBThreadCount(void);

/// Makes malloc keep freed memory (up to 256 MiB at the top of the heap) for
/// the next forward pass instead of returning it to the system after each one
/// (glibc: mallopt M_TRIM_THRESHOLD and M_MMAP_THRESHOLD), and caps malloc at
/// one arena per CPU, at least 2 (M_ARENA_MAX, unless the MALLOC_ARENA_MAX
/// variable is set), each of which reserves 64 MiB of address space.
/// Process-wide, for executables that run a model many times; call once at
/// start-up. The cost:
/// memory freed after a peak stays resident (the peak itself does not grow).
/// Returns 1 where applied, 0 where the C library has no such setting or
/// refuses it (AddressSanitizer's mallopt refuses everything); then nothing
/// changed.
int TBRetainFreedMemory(void);

/// TB_BRIDGE_INTERFACE_VERSION as the bridge was compiled.
int TBBridgeInterfaceVersion(void);

/// The libtorch version the bridge was built against, such as "1.13.1".
/// A static string: do not free.
const char *_Nonnull TBTorchVersion(void);

#ifdef __cplusplus
}
#endif

#endif // TORCH_BRIDGE_H
