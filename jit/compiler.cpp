// LLJIT setup, the optimisation pipeline, and the on-disk object cache.
#include "jit/compiler.hpp"

#include <chrono>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <vector>
#include <ctime>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/PassTimingInfo.h>
#include <llvm/IR/VFABIDemangler.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SmallVectorMemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>

#include "jit/codegen.hpp"
#include "jit/math_bitcode.hpp"
#include "stdlib/brook_math.hpp"

namespace brook::jit {

extern "C" int brook_jit_printf(void* launch, const char* format, const void* args, int64_t n,
                                int64_t loc);
extern "C" void brook_jit_push(void* ctx, int64_t param, const void* value, int64_t size);
extern "C" void brook_jit_sync(void* launch, int64_t site);

namespace {

// This thread's CPU time: on a loaded machine wall time also counts the
// time other processes held the cores.
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// Part of the disk cache key: a kernel that inlines the math is stale when
// the math changes.
uint64_t math_bitcode_hash() {
  const std::span<const unsigned char> b = math_bitcode();
  return b.empty() ? 0 : llvm::xxh3_64bits(llvm::ArrayRef(b.data(), b.size()));
}

[[noreturn]] void fail(llvm::Error e, const char* what) {
  std::string msg;
  llvm::raw_string_ostream os(msg);
  os << e;
  throw std::runtime_error(std::string("JIT ") + what + ": " + msg);
}

template <class T>
T check(llvm::Expected<T> v, const char* what) {
  if (!v) fail(v.takeError(), what);
  return std::move(*v);
}

// Links jit/math_bitcode.hpp's functions into `m` when it calls one
// (Codegen::gang_call): internal and always inlined, their target attributes
// dropped so that they take the kernel's (the host CPU's), which includes
// theirs (brook_math_inline_symbol is empty without AVX-512).
void link_math_bitcode(llvm::Module& m) {
  bool wanted = false;
  for (const llvm::Function& f : m)
    wanted = wanted || (f.isDeclaration() && f.getName().starts_with("brook_inline_"));
  if (!wanted) return;
  const std::span<const unsigned char> bitcode = math_bitcode();
  llvm::MemoryBufferRef buffer(
      llvm::StringRef(reinterpret_cast<const char*>(bitcode.data()), bitcode.size()),
      "brook_math_inline");
  std::unique_ptr<llvm::Module> lib =
      check(llvm::parseBitcodeFile(buffer, m.getContext()), "reading the math bitcode");
  lib->setDataLayout(m.getDataLayout());
  lib->setTargetTriple(m.getTargetTriple());
  for (llvm::Function& f : *lib)
    for (const char* attr : {"target-cpu", "target-features", "tune-cpu"}) f.removeFnAttr(attr);
  if (llvm::Linker::linkModules(m, std::move(lib), llvm::Linker::LinkOnlyNeeded))
    throw std::runtime_error("JIT: linking the math bitcode failed");
  for (llvm::Function& f : m) {
    if (f.isDeclaration() || !f.getName().starts_with("brook_inline_")) continue;
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
    f.addFnAttr(llvm::Attribute::AlwaysInline);
  }
}

}  // namespace

// The optimisation pipelines, in PassBuilder's textual syntax (`opt
// -passes=`), so an experiment is an environment variable away. The module is
// one entry plus always-inline bodies, so -O3's module pipeline (CGSCC
// inliner, IPO, attribute inference) has nothing to do and its function
// simplification runs twice (bodies, then entry); these run -O2/-O3's
// function simplification passes once, on the entry after inlining. Measured
// with bench/run_bench.sh: code within a few per cent of -O3 (scalar modules)
// and of -O2 without vectorisers (brook.spmd modules), 30% less optimisation
// time on brook.spmd modules, 10% on scalar ones. InstCombine runs with no-verify-fixpoint, as in the -O pipelines:
// the textual default aborts the process when a fixpoint takes a second
// iteration. Both strings are part of the disk cache key.
//
// The scalar cleanups: SROA/mem2reg, CSE, InstCombine, SimplifyCFG, jump
// threading and value propagation, LICM around loop rotation, IndVars, full
// unrolling with -O3's thresholds, GVN, dead code and store elimination.
#define BROOK_IC "instcombine<no-verify-fixpoint>"
#define BROOK_CLEANUPS(UNROLL)                                                                           \
  "sroa<modify-cfg>,early-cse<memssa>,jump-threading,correlated-propagation,simplifycfg," BROOK_IC        \
  ",aggressive-instcombine,simplifycfg,reassociate,constraint-elimination,"                               \
  "loop-mssa(loop-instsimplify,loop-simplifycfg,licm<no-allowspeculation>,loop-rotate,"                  \
  "licm<allowspeculation>,simple-loop-unswitch),simplifycfg," BROOK_IC                                    \
  ",loop(loop-idiom,indvars,loop-deletion," UNROLL "),sroa<modify-cfg>,vector-combine,"                  \
  "mldst-motion,gvn,sccp,bdce," BROOK_IC ",jump-threading,correlated-propagation,adce,memcpyopt,dse,"     \
  "loop-mssa(licm<allowspeculation>),simplifycfg<hoist-common-insts;sink-common-insts>," BROOK_IC
// Scalar element loops: split float2/float4 first (brook-scalarize), then the
// cleanups, then the loop vectoriser and SLP (transcendentals through libmvec
// under fp_relaxed only) and -O3's late unrolling and cleanups.
constexpr const char* kScalarPipeline =
    "function(brook-scalarize),always-inline,globaldce,function(" BROOK_CLEANUPS("brook-loop-unroll-full")
    ",inject-tli-mappings,brook-strict-vector-library,loop-vectorize," BROOK_IC
    ",simplifycfg,slp-vectorizer,vector-combine," BROOK_IC ",loop-unroll<O3>,sroa<preserve-cfg>," BROOK_IC
    ",loop-mssa(licm),simplifycfg)";
// brook.spmd modules are vector code already: the cleanups alone, unrolling
// only the loops the generator marks (counted loops of a few trips: 3x3
// stencils). Heuristic full unrolling of longer loops over vector bodies cost
// compile time for nothing: sgm_path's census 20.8 -> 18.6 ms, optimisation
// 8.6 -> 6.7 ms, every bench row the same or faster.
constexpr const char* kSpmdPipeline =
    "always-inline,globaldce,function(" BROOK_CLEANUPS("brook-loop-unroll-forced") ")";
// Large brook.spmd modules (winograd_tile: a dozen loops over float4 arrays)
// spend twice the compile-latency target in the cleanups and code generation
// alone: these get SSA construction, CSE and dead code removal only, and the
// backend's -O1 with FastISel. Measured on winograd: optimisation 18 -> 2.3
// ms CPU (InstCombine alone was 1.3 ms and saved the backend nothing), code
// generation 17 -> 14 ms, run time no worse (0.47 ms, was 0.66); the loop
// passes earn their time on small loop nests (sgemm, mandelbrot: under 600
// instructions), which stay below the threshold.
constexpr const char* kSpmdLargePipeline =
    "always-inline,globaldce,function(sroa<modify-cfg>,early-cse<memssa>,simplifycfg,adce)";
// Instructions in the unoptimised module above which it counts as large.
constexpr size_t kSpmdLargeInstructions = 1500;
#undef BROOK_CLEANUPS
#undef BROOK_IC

// LLVM's code generator takes some choices only from its command-line
// options, which are process-wide: these are set for one run and reset after,
// under a lock that every code generation holds. Options already given (by
// BROOK_JIT_LLVM_ARGS) are left as they are.
static std::mutex& codegen_options_mutex() {
  static std::mutex mu;
  return mu;
}

class ScopedLlvmOptions {
 public:
  explicit ScopedLlvmOptions(std::initializer_list<std::pair<const char*, const char*>> options) {
    auto& registered = llvm::cl::getRegisteredOptions();
    for (const auto& [name, value] : options) {
      auto it = registered.find(name);
      if (it == registered.end() || it->second->getNumOccurrences() > 0) continue;
      if (!it->second->addOccurrence(0, name, value)) set_.push_back(it->second);
    }
  }
  ~ScopedLlvmOptions() {
    for (llvm::cl::Option* o : set_) o->reset();
  }
  ScopedLlvmOptions(const ScopedLlvmOptions&) = delete;
  ScopedLlvmOptions& operator=(const ScopedLlvmOptions&) = delete;

 private:
  std::vector<llvm::cl::Option*> set_;
};

static size_t instruction_count(const llvm::Module& m) {
  size_t n = 0;
  for (const llvm::Function& f : m) n += f.getInstructionCount();
  return n;
}

// brook-scalarize: LLVM's Scalarizer (loads and stores too), except on
// functions marked kKeepVectorsAttr, whose wide vectors are written on
// purpose (emit_fold's register transpose) and would come back as hundreds
// of scalar loads.
struct BrookScalarizePass : llvm::PassInfoMixin<BrookScalarizePass> {
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager& am) {
    if (f.hasFnAttribute(kKeepVectorsAttr)) return llvm::PreservedAnalyses::all();
    llvm::ScalarizerPassOptions so;
    so.ScalarizeLoadStore = true;
    return llvm::ScalarizerPass(so).run(f, am);
  }
};

// After inject-tli-mappings: keeps the libmvec variants only on calls with
// the approximate-functions flag (#pragma brook fp_relaxed). libmvec's
// results differ from libm's in the last bits, and strict kernels must print
// what the interpreter prints.
struct StrictVectorLibraryPass : llvm::PassInfoMixin<StrictVectorLibraryPass> {
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager&) {
    bool changed = false;
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& inst : bb) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
        if (!call || !call->hasFnAttr(llvm::VFABI::MappingsAttrName)) continue;
        if (llvm::isa<llvm::FPMathOperator>(call) && call->hasApproxFunc()) continue;
        call->removeFnAttr(llvm::VFABI::MappingsAttrName);
        changed = true;
      }
    return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
  }
};

struct JitCompiler::Impl {
  std::optional<llvm::orc::JITTargetMachineBuilder> jtmb;
  std::unique_ptr<llvm::TargetMachine> tm;
  // -O1 code generation, for large brook.spmd modules; made on first use.
  std::unique_ptr<llvm::TargetMachine> tm_large;
  std::unique_ptr<llvm::orc::LLJIT> jit;  // after tm: its compile function refers to it
  std::string cpu_key;  // pipelines + LLVM version + CPU name + features
  bool have_libmvec = false;
  std::unordered_map<uint64_t, void*> loaded;  // hash -> entry address
  std::string scalar_pipeline = kScalarPipeline;  // BROOK_JIT_PIPELINE overrides, for experiments
  std::string spmd_pipeline = kSpmdPipeline;      // BROOK_JIT_SPMD_PIPELINE likewise
  std::string spmd_large_pipeline = kSpmdLargePipeline;  // and this one

  // Decided on the unoptimised module, so the disk cache key (that module
  // and cpu_key, which holds both pipelines) covers it.
  static bool large(const llvm::Module& m) {
    return m.getNamedMetadata("brook.spmd") != nullptr && instruction_count(m) > kSpmdLargeInstructions;
  }

  double startup_ms = -1;  // < 0 until start_up() ran
  // Optimises and generates code for a one-store function, for its side
  // effect: LLVM initialises its tables on first use.
  void start_up() {
    llvm::LLVMContext context;
    auto m = new_module(context);
    llvm::IRBuilder<> b(context);
    auto* f = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy()}, false),
                                     llvm::Function::ExternalLinkage, "brook_start_up", *m);
    b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", f));
    b.CreateStore(llvm::ConstantFP::get(llvm::FixedVectorType::get(b.getFloatTy(), 16), 1.0), f->getArg(0));
    b.CreateRetVoid();
    optimize(*m, false);
    codegen(*m, false);
  }

  std::unique_ptr<llvm::Module> new_module(llvm::LLVMContext& context) const {
    auto module = std::make_unique<llvm::Module>("brook", context);
    module->setDataLayout(tm->createDataLayout());
    module->setTargetTriple(tm->getTargetTriple().str());
    return module;
  }

  // The disk cache key: the unoptimised module (as bitcode, cheaper to make
  // than text) and everything else that decides the object code.
  uint64_t hash(const llvm::Module& m) const {
    llvm::SmallVector<char, 0> buf;
    llvm::raw_svector_ostream os(buf);
    llvm::WriteBitcodeToFile(m, os);
    os << cpu_key;
    return llvm::xxh3_64bits(llvm::ArrayRef(reinterpret_cast<const uint8_t*>(buf.data()), buf.size()));
  }

  void optimize(llvm::Module& m, bool is_large) {
    // Modules marked brook.spmd are already vector code (one lane per
    // element): scalarising them would undo that, and the vectorisers have
    // nothing left to do.
    const bool spmd = m.getNamedMetadata("brook.spmd") != nullptr;
    llvm::PipelineTuningOptions pto;
    pto.LoopVectorization = !spmd;
    pto.SLPVectorization = !spmd;
    pto.LoopInterleaving = !spmd;
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    // BROOK_JIT_LLVM_ARGS=-time-passes: a per-pass time report at exit.
    llvm::PassInstrumentationCallbacks pic;
    std::optional<llvm::StandardInstrumentations> si;
    if (llvm::TimePassesIsEnabled) {
      si.emplace(m.getContext(), false);
      si->registerCallbacks(pic, &mam);
    }
    llvm::PassBuilder pb(tm.get(), pto, std::nullopt, llvm::TimePassesIsEnabled ? &pic : nullptr);
    llvm::Triple triple(m.getTargetTriple());
    llvm::TargetLibraryInfoImpl tlii(triple);
    // Transcendentals in vectorised loops go to glibc's libmvec.
    if (have_libmvec) {
      tlii.addVectorizableFunctionsFromVecLib(llvm::TargetLibraryInfoImpl::LIBMVEC_X86, triple);
    }
    fam.registerPass([&] { return llvm::TargetLibraryAnalysis(tlii); });
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    // float2/float4 values block the loop vectoriser ("instruction return
    // type cannot be vectorized"): brook-scalarize splits them into scalars
    // first, so the element loop vectorises across invocations.
    pb.registerPipelineParsingCallback([](llvm::StringRef name, llvm::FunctionPassManager& fpm,
                                          llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
      if (name == "brook-strict-vector-library") {
        fpm.addPass(StrictVectorLibraryPass());
        return true;
      }
      if (name != "brook-scalarize") return false;
      fpm.addPass(BrookScalarizePass());
      return true;
    });
    // brook-loop-unroll-full: full unrolling with -O3's thresholds (the
    // textual loop-unroll-full has -O2's), so 3x3 and 4x4 stencil loops
    // unroll as they do under -O3.
    pb.registerPipelineParsingCallback([](llvm::StringRef name, llvm::LoopPassManager& lpm,
                                          llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
      // brook-loop-unroll-forced: only the loops the SPMD generator marks for
      // full unrolling (counted loops of a few trips).
      if (name == "brook-loop-unroll-forced") {
        lpm.addPass(llvm::LoopFullUnrollPass(3, /*OnlyWhenForced=*/true));
        return true;
      }
      if (name != "brook-loop-unroll-full") return false;
      lpm.addPass(llvm::LoopFullUnrollPass(3));
      return true;
    });
    link_math_bitcode(m);
    llvm::ModulePassManager mpm;
    const std::string& text = !spmd ? scalar_pipeline : is_large ? spmd_large_pipeline : spmd_pipeline;
    if (auto e = pb.parsePassPipeline(mpm, text)) fail(std::move(e), "parsing the pass pipeline");
    mpm.run(m, mam);
    // The math helpers (kInlineLateAttr) inlined now that equal calls are
    // merged: the cores' instructions interleave with the kernel's, and the
    // lanes no longer go through memory.
    bool late = false;
    for (llvm::Function& f : m) {
      if (!f.hasFnAttribute(kInlineLateAttr)) continue;
      f.removeFnAttr(llvm::Attribute::NoInline);
      f.addFnAttr(llvm::Attribute::AlwaysInline);
      late = true;
    }
    if (late) {
      llvm::ModulePassManager inline_late;
      if (auto e = pb.parsePassPipeline(inline_late, "always-inline,globaldce"))
        fail(std::move(e), "parsing the pass pipeline");
      inline_late.run(m, mam);
    }
  }

  std::unique_ptr<llvm::MemoryBuffer> codegen(llvm::Module& m, bool is_large) {
    llvm::SmallVector<char, 0> buf;
    llvm::raw_svector_ostream os(buf);
    llvm::legacy::PassManager pm;
    if (is_large && !tm_large) {
      auto large = *jtmb;
      large.setCodeGenOptLevel(llvm::CodeGenOptLevel::Less);
      tm_large = check(large.createTargetMachine(), "creating the target machine");
      // FastISel: the few scalar instructions go the quick way (vector ones
      // still take SelectionDAG); 10% less code generation time on winograd.
      tm_large->setFastISel(true);
    }
    llvm::TargetMachine& target = is_large ? *tm_large : *tm;
    std::lock_guard lock(codegen_options_mutex());
    // Large modules: without the pre-register-allocation scheduler, the
    // machine-level LICM and CSE (the IR pipeline ran CSE) and loop strength
    // reduction (short counted loops over stack arrays): winograd's code
    // generation 15.5 -> 12.5 ms CPU, run time within the machine's noise.
    std::optional<ScopedLlvmOptions> options;
    if (is_large)
      options.emplace(std::initializer_list<std::pair<const char*, const char*>>{
          {"enable-misched", "false"},
          {"disable-machine-licm", "true"},
          {"disable-machine-cse", "true"},
          {"disable-lsr", "true"}});
    if (target.addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile)) {
      throw std::runtime_error("JIT: the target cannot emit object files");
    }
    pm.run(m);
    return std::make_unique<llvm::SmallVectorMemoryBuffer>(std::move(buf), m.getModuleIdentifier(), false);
  }
};

JitCompiler::JitCompiler(const JitTuning& tuning, std::string cache_dir)
    : impl_(std::make_unique<Impl>()), cache_dir_(std::move(cache_dir)), dump_(tuning.dump),
      phases_(tuning.phases) {
  static std::once_flag init;
  std::call_once(init, [&] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // LLVM's own options, for experiments (as `opt`/`llc` take them).
    if (!tuning.llvm_args.empty()) {
      std::vector<std::string> words{"brook"};
      std::istringstream in(tuning.llvm_args);
      for (std::string w; in >> w;) words.push_back(w);
      std::vector<const char*> argv;
      for (const auto& w : words) argv.push_back(w.c_str());
      llvm::cl::ParseCommandLineOptions(static_cast<int>(argv.size()), argv.data(), "", &llvm::errs());
    }
  });
  auto& jtmb = impl_->jtmb.emplace(
      check(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host"));
  jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  impl_->tm = check(jtmb.createTargetMachine(), "creating the target machine");
  if (!tuning.scalar_pipeline.empty()) impl_->scalar_pipeline = tuning.scalar_pipeline;
  if (!tuning.spmd_pipeline.empty()) impl_->spmd_pipeline = impl_->spmd_large_pipeline = tuning.spmd_pipeline;
  std::string err;
  impl_->have_libmvec = !llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1", &err);
  // Each target machine costs about 0.4 ms to make (its subtarget tables), and
  // LLJIT would make two more of its own (for the data layout and for an IR
  // compile layer brook never uses: objects come from codegen() or the disk
  // cache). Nor does brook need its platform support (static initialisers of
  // IR modules): kernels have none.
  llvm::TargetMachine* tm = impl_->tm.get();
  impl_->jit =
      check(llvm::orc::LLJITBuilder()
                .setJITTargetMachineBuilder(jtmb)
                .setDataLayout(tm->createDataLayout())
                .setCompileFunctionCreator([tm](llvm::orc::JITTargetMachineBuilder) {
                  return llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>>(
                      std::make_unique<llvm::orc::SimpleCompiler>(*tm));
                })
                .setPlatformSetUp(llvm::orc::setUpInactivePlatform)
                .create(),
            "creating LLJIT");
  auto& es = impl_->jit->getExecutionSession();
  llvm::orc::SymbolMap hooks;
  hooks[es.intern("brook_jit_printf")] = {llvm::orc::ExecutorAddr::fromPtr(&brook_jit_printf),
                                          llvm::JITSymbolFlags::Exported};
  hooks[es.intern("brook_jit_push")] = {llvm::orc::ExecutorAddr::fromPtr(&brook_jit_push),
                                        llvm::JITSymbolFlags::Exported};
  hooks[es.intern("brook_jit_sync")] = {llvm::orc::ExecutorAddr::fromPtr(&brook_jit_sync),
                                        llvm::JITSymbolFlags::Exported};
  // The project's float math (stdlib/brook_math.h), which kernels call by name.
  for (const stdlib::BrookMathSymbol& m : stdlib::brook_math_symbols())
    hooks[es.intern(m.name)] = {llvm::orc::ExecutorAddr::fromPtr(m.fn),
                                llvm::JITSymbolFlags::Exported};
  for (const stdlib::BrookMathSymbolD& m : stdlib::brook_math_double_symbols())
    hooks[es.intern(m.name)] = {llvm::orc::ExecutorAddr::fromPtr(m.fn),
                                llvm::JITSymbolFlags::Exported};
  for (const stdlib::BrookMathSymbol2& m : stdlib::brook_math_binary_symbols())
    hooks[es.intern(m.name)] = {llvm::orc::ExecutorAddr::fromPtr(m.fn),
                                llvm::JITSymbolFlags::Exported};
  for (const stdlib::BrookMathSymbol2D& m : stdlib::brook_math_double_binary_symbols())
    hooks[es.intern(m.name)] = {llvm::orc::ExecutorAddr::fromPtr(m.fn),
                                llvm::JITSymbolFlags::Exported};
  // Their gang forms, the variant for this CPU (SPMD kernels call them).
  for (const stdlib::BrookGangSymbol& m : stdlib::brook_math_gang_symbols())
    hooks[es.intern(m.name)] = {llvm::orc::ExecutorAddr::fromPtr(m.fn),
                                llvm::JITSymbolFlags::Exported};
  for (const stdlib::BrookGang2Symbol& m : stdlib::brook_math_gang2_symbols())
    hooks[es.intern(m.name)] = {llvm::orc::ExecutorAddr::fromPtr(m.fn),
                                llvm::JITSymbolFlags::Exported};
  if (auto e = impl_->jit->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(hooks)))) {
    fail(std::move(e), "defining runtime hooks");
  }
  if (impl_->have_libmvec) {
    auto gen = llvm::orc::DynamicLibrarySearchGenerator::Load(
        "libmvec.so.1", impl_->jit->getDataLayout().getGlobalPrefix());
    if (gen) impl_->jit->getMainJITDylib().addGenerator(std::move(*gen));
    else llvm::consumeError(gen.takeError());
  }
  std::ostringstream key;
  key << pipeline_version() << ";" << impl_->scalar_pipeline << ";" << impl_->spmd_pipeline << ";"
      << impl_->spmd_large_pipeline << ";large>" << kSpmdLargeInstructions << ";cg"
      << static_cast<int>(impl_->tm->getOptLevel()) << ";llvm" << LLVM_VERSION_STRING << ";"
      << impl_->tm->getTargetCPU().str() << ";" << impl_->tm->getTargetFeatureString().str()
      << ";mvec" << impl_->have_libmvec << ";math" << std::hex << math_bitcode_hash();
  impl_->cpu_key = key.str();
}

JitCompiler::~JitCompiler() = default;

// Bump when a brook-* pass or the code generation of large modules (-O1,
// FastISel, the options in Impl::codegen) changes what it does (the pipeline
// texts are in the key already).
const char* JitCompiler::pipeline_version() {
  return "brook-pipeline-5";
}

namespace {

std::string hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// JitTuning::phases: one line per compile on stderr, the thread's CPU ms in
// each phase (wall time on a loaded machine also counts other processes'
// turns on the cores), then the wall and CPU totals.
struct Phases {
  using Clock = std::chrono::steady_clock;
  bool on;
  explicit Phases(bool report) : on(report) {}
  Clock::time_point start = Clock::now(), end = start;
  double cpu0 = thread_cpu_ms(), cpu_last = cpu0;
  std::string line;
  void mark(const char* phase) {
    end = Clock::now();
    if (on) {
      double cpu = thread_cpu_ms();
      line += std::string(" ") + phase + " " + fmt(cpu - cpu_last);
      cpu_last = cpu;
    }
  }
  // Leaves time spent since `t` (and the CPU time `cpu_ms`) out of the phases.
  void exclude(Clock::duration d, double cpu_ms) {
    start += d;
    cpu0 += cpu_ms;
    cpu_last += cpu_ms;
  }
  double total_ms() const { return std::chrono::duration<double, std::milli>(end - start).count(); }
  void report(const std::string& entry) const {
    if (on) {
      std::fprintf(stderr, "jit-phases %s%s total %s cpu %s\n", entry.c_str(), line.c_str(), fmt(total_ms()).c_str(),
                   fmt(cpu_last - cpu0).c_str());
    }
  }
  static std::string fmt(double ms) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", ms);
    return b;
  }
};

void write_atomically(const std::string& dir, const std::string& path, const llvm::MemoryBuffer& object) {
  // Write then rename, so a concurrent run never reads half a file.
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::string tmp = path + ".tmp" + std::to_string(::getpid());
  std::ofstream out(tmp, std::ios::binary);
  out.write(object.getBufferStart(), static_cast<std::streamsize>(object.getBufferSize()));
  out.close();
  if (out) std::filesystem::rename(tmp, path, ec);
  else std::filesystem::remove(tmp, ec);
}

}  // namespace

JitCompiler::Result JitCompiler::get(const Emit& emit) {
  std::lock_guard lock(mu_);
  Phases phases(phases_);
  llvm::LLVMContext context;
  auto module = impl_->new_module(context);
  emit(*module, "brook_entry");
  phases.mark("ir");
  // The unoptimised IR of each module, for `opt` experiments.
  if (dump_ == 1) module->print(llvm::errs(), nullptr);
  const uint64_t h = impl_->hash(*module);
  std::string entry = "brook_entry_" + hex(h);
  if (auto it = impl_->loaded.find(h); it != impl_->loaded.end()) return {it->second, false, 0};
  llvm::Function* entry_fn = module->getFunction("brook_entry");
  if (!entry_fn || entry_fn->isDeclaration()) throw std::runtime_error("JIT: the module defines no entry function");
  entry_fn->setName(entry);
  module->setModuleIdentifier(entry);
  phases.mark("hash");

  Result r;
  std::unique_ptr<llvm::MemoryBuffer> object;
  std::string path = cache_dir_.empty() ? "" : cache_dir_ + "/" + hex(h) + ".o";
  if (!path.empty()) {
    auto mb = llvm::MemoryBuffer::getFile(path);
    if (mb) object = std::move(*mb);
  }
  phases.mark("cache");
  if (!object) {
    if (impl_->startup_ms < 0) {
      // LLVM's one-time start-up (pass and target tables) would otherwise be
      // billed to whichever kernel compiles first: pay it on a tiny module
      // and report it apart (--profile: "JIT start-up").
      auto t0 = Phases::Clock::now();
      double c0 = thread_cpu_ms();
      impl_->start_up();
      auto d = Phases::Clock::now() - t0;
      impl_->startup_ms = std::chrono::duration<double, std::milli>(d).count();
      phases.exclude(d, thread_cpu_ms() - c0);
    }
    const bool large = Impl::large(*module);
    if (phases.on) phases.line += " instructions " + std::to_string(instruction_count(*module)) + (large ? " large" : "");
    impl_->optimize(*module, large);
    // The optimised IR, what the code generator gets.
    if (dump_ == 2) module->print(llvm::errs(), nullptr);
    phases.mark("opt");
    object = impl_->codegen(*module, large);
    phases.mark("codegen");
    r.compiled = true;
    if (!path.empty()) write_atomically(cache_dir_, path, *object);
  }
  if (auto e = impl_->jit->addObjectFile(std::move(object))) fail(std::move(e), "loading code");
  auto sym = check(impl_->jit->lookup(entry), "looking up the kernel");
  r.address = sym.toPtr<void*>();
  impl_->loaded[h] = r.address;
  phases.mark("link");
  r.ms = phases.total_ms();
  phases.report(entry);
  return r;
}

double JitCompiler::startup_ms() const { return impl_->startup_ms < 0 ? 0 : impl_->startup_ms; }

JitCompiler::Emit JitCompiler::emit_ir_text(std::string text) {
  return [text = std::move(text)](llvm::Module& module, const std::string& entry) {
    std::string ir = text;
    for (auto at = ir.find("$entry"); at != std::string::npos; at = ir.find("$entry", at + entry.size())) {
      ir.replace(at, 6, entry);
    }
    llvm::SMDiagnostic err;
    auto buffer = llvm::MemoryBuffer::getMemBuffer(ir, "ir-text");
    if (llvm::parseAssemblyInto(buffer->getMemBufferRef(), &module, nullptr, err)) {
      std::string msg;
      llvm::raw_string_ostream os(msg);
      err.print("ir-text", os, false);
      throw std::runtime_error("JIT: " + msg);
    }
  };
}

std::string JitCompiler::optimized_ir(const Emit& emit) {
  std::lock_guard lock(mu_);
  llvm::LLVMContext context;
  auto module = impl_->new_module(context);
  emit(*module, "brook_entry");
  impl_->optimize(*module, Impl::large(*module));
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, nullptr);
  return text;
}

}  // namespace brook::jit
