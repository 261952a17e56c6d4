// transforms/BufferAssignment.h — where each temporary buffer of a compiled program lives: an
// offset in one scratch arena, from the buffers' live ranges on the program's schedule (the
// results apart from the algorithm, as XLA's buffer_assignment.h).
//
//   FailureOr<BufferAssignment> a = assignBuffers(module, {.share = true});
//   a->print(llvm::errs());   // each buffer: size, offset, live range, value
//
// The schedule is the order of the entry function's top-level ops: a buffer is live from the
// first op that uses it (or a view of it) to the last. Buffers whose live ranges do not
// overlap may share bytes; an elementwise op may write its result over an input that dies
// there (in place). Compiler-side only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/Support/LLVM.h"

namespace llvm {
class raw_ostream;
}

namespace mlir {
class Block;
class MemRefType;
class ModuleOp;
class Operation;
class Value;
namespace func {
class FuncOp;
}

namespace strata {

struct BufferAssignmentOptions {
  // Buffers whose live ranges do not overlap share memory. False: every buffer its own slot
  // (JitOptions::assign_buffers = false), so that the effect can be measured.
  bool share = true;
  // An elementwise op writes its result over an input buffer that dies there.
  bool inPlace = true;
  // Allocations that already carry `strata.offset` (an earlier assignment) keep it; the others
  // are placed around them.
  bool keepOffsets = true;
  int64_t alignment = 64;
};

// The attribute names an assignment is recorded under (AssignBuffers.cpp, ScratchArena.cpp).
inline constexpr const char* kOffsetAttr = "strata.offset";
inline constexpr const char* kBufferAttr = "strata.buffer";
inline constexpr const char* kInPlaceAttr = "strata.in_place_of";

class BufferAssignment {
 public:
  struct Buffer {
    int id = 0;
    Operation* alloc = nullptr;  // the memref.alloc
    int64_t size = 0;            // bytes, rounded up to the alignment
    int64_t offset = 0;          // bytes into the arena
    int64_t first = 0, last = 0;  // live range: positions in the schedule, inclusive
    int inPlaceOf = -1;          // the buffer whose bytes it takes over where that one dies
    bool kept = false;           // its offset came from an earlier assignment
    std::string value;           // "%alloc_3 : memref<4x16xf32>"
    std::string writer;          // the op at its first use
  };

  llvm::ArrayRef<Buffer> buffers() const { return buffers_; }
  // The arena: the highest end of any buffer.
  int64_t arenaBytes() const { return arena_; }
  // The sum of all buffers' sizes: the arena without any sharing.
  int64_t temporariesBytes() const { return temporaries_; }
  const Buffer* find(Operation* alloc) const;

  void print(llvm::raw_ostream& os) const;
  std::string str() const;

 private:
  friend FailureOr<BufferAssignment> assignBuffers(func::FuncOp fn, const BufferAssignmentOptions& options);
  std::vector<Buffer> buffers_;
  int64_t arena_ = 0, temporaries_ = 0;
};

// The assignment of every memref.alloc of `fn`. Fails (with a diagnostic) on an allocation
// outside fn's body, of dynamic shape or non-identity layout.
// REQUIRES: bufferized; allocations only in fn.
FailureOr<BufferAssignment> assignBuffers(func::FuncOp fn, const BufferAssignmentOptions& options);
// The same for the module's entry function (EntryFunction.h).
FailureOr<BufferAssignment> assignBuffers(ModuleOp module, const BufferAssignmentOptions& options);
// The bytes a buffer of type `t` holds (before alignment).
int64_t byteSize(MemRefType t);
// The buffer a memref value views, through subviews, reshapes, casts and views.
Value viewedBuffer(Value v);
// The positions (in `index`, of the top-level ops of `block`) of every use of `v`, of memrefs
// viewing it and of pointers taken from it; deallocations are not uses.
llvm::SmallVector<int64_t> usePositions(Value v, Block& block, const llvm::DenseMap<Operation*, int64_t>& index);

// The assignment strata-assign-buffers recorded on `module`, printed as `//` comment lines (the
// `buffers` stage appends them to the module's text); empty when there is none.
std::string recordedBufferAssignment(ModuleOp module);

}  // namespace strata
}  // namespace mlir
