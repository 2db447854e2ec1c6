// LLJIT setup, the optimisation pipeline, and the on-disk object cache.
#include "jit/compiler.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SmallVectorMemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>
#include <llvm/TargetParser/Host.h>

namespace brook::jit {

extern "C" int brook_jit_printf(void* launch, const char* format, const void* args, int64_t n,
                                int64_t loc);

namespace {

std::string default_cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/brook";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/brook";
  return "";
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

}  // namespace

struct JitCompiler::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<llvm::TargetMachine> tm;
  std::string cpu_key;  // CPU name + features + LLVM version
  bool have_libmvec = false;
  std::unordered_map<uint64_t, void*> loaded;  // hash -> entry address

  void optimize(llvm::Module& m) {
    llvm::PipelineTuningOptions pto;
    pto.LoopVectorization = true;
    pto.SLPVectorization = true;
    pto.LoopInterleaving = true;
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(tm.get(), pto);
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
    // type cannot be vectorized"): split them into scalars first, so the
    // element loop vectorises across invocations (one element per lane).
    pb.registerPipelineStartEPCallback([](llvm::ModulePassManager& m, llvm::OptimizationLevel) {
      llvm::ScalarizerPassOptions so;
      so.ScalarizeLoadStore = true;
      m.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::ScalarizerPass(so)));
    });
    auto mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    mpm.run(m, mam);
  }

  std::unique_ptr<llvm::MemoryBuffer> codegen(llvm::Module& m) {
    llvm::SmallVector<char, 0> buf;
    llvm::raw_svector_ostream os(buf);
    llvm::legacy::PassManager pm;
    if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile)) {
      throw std::runtime_error("JIT: the target cannot emit object files");
    }
    pm.run(m);
    return std::make_unique<llvm::SmallVectorMemoryBuffer>(std::move(buf), m.getModuleIdentifier(), false);
  }
};

JitCompiler::JitCompiler(bool use_disk_cache) : impl_(std::make_unique<Impl>()) {
  static std::once_flag init;
  std::call_once(init, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  auto jtmb = check(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host");
  jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  impl_->tm = check(jtmb.createTargetMachine(), "creating the target machine");
  impl_->jit = check(llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(jtmb).create(), "creating LLJIT");
  std::string err;
  impl_->have_libmvec = !llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1", &err);
  auto& es = impl_->jit->getExecutionSession();
  llvm::orc::SymbolMap hooks;
  hooks[es.intern("brook_jit_printf")] = {llvm::orc::ExecutorAddr::fromPtr(&brook_jit_printf),
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
  key << "llvm" << LLVM_VERSION_STRING << ";" << impl_->tm->getTargetCPU().str() << ";"
      << impl_->tm->getTargetFeatureString().str() << ";mvec" << impl_->have_libmvec;
  impl_->cpu_key = key.str();
  if (use_disk_cache) cache_dir_ = default_cache_dir();
}

JitCompiler::~JitCompiler() = default;

namespace {
std::string hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}
}  // namespace

JitCompiler::Result JitCompiler::get(const Emit& emit) {
  std::lock_guard lock(mu_);
  auto t0 = std::chrono::steady_clock::now();
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("brook", *context);
  module->setDataLayout(impl_->tm->createDataLayout());
  module->setTargetTriple(impl_->tm->getTargetTriple().str());
  emit(*module, "brook_entry");
  std::string text;
  {
    llvm::raw_string_ostream os(text);
    module->print(os, nullptr);
  }
  // BROOK_JIT_DUMP=1: the unoptimised IR of each module, for `opt` experiments.
  if (const char* d = std::getenv("BROOK_JIT_DUMP"); d && *d == '1') std::fputs(text.c_str(), stderr);
  uint64_t h = llvm::xxh3_64bits(llvm::StringRef(text + "\n" + impl_->cpu_key));
  std::string entry = "brook_entry_" + hex(h);
  if (auto it = impl_->loaded.find(h); it != impl_->loaded.end()) return {it->second, false, 0};
  module->getFunction("brook_entry")->setName(entry);
  module->setModuleIdentifier(entry);

  Result r;
  std::unique_ptr<llvm::MemoryBuffer> object;
  std::string path = cache_dir_.empty() ? "" : cache_dir_ + "/" + hex(h) + ".o";
  if (!path.empty()) {
    auto mb = llvm::MemoryBuffer::getFile(path);
    if (mb) object = std::move(*mb);
  }
  if (!object) {
    impl_->optimize(*module);
    object = impl_->codegen(*module);
    r.compiled = true;
    if (!path.empty()) {
      // Write then rename, so a concurrent run never reads half a file.
      std::error_code ec;
      std::filesystem::create_directories(cache_dir_, ec);
      std::string tmp = path + ".tmp" + std::to_string(::getpid());
      std::ofstream out(tmp, std::ios::binary);
      out.write(object->getBufferStart(), static_cast<std::streamsize>(object->getBufferSize()));
      out.close();
      if (out) std::filesystem::rename(tmp, path, ec);
      else std::filesystem::remove(tmp, ec);
    }
  }
  if (auto e = impl_->jit->addObjectFile(std::move(object))) fail(std::move(e), "loading code");
  auto sym = check(impl_->jit->lookup(entry), "looking up the kernel");
  r.address = sym.toPtr<void*>();
  impl_->loaded[h] = r.address;
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

std::string JitCompiler::optimized_ir(const Emit& emit) {
  std::lock_guard lock(mu_);
  llvm::LLVMContext context;
  llvm::Module module("brook", context);
  module.setDataLayout(impl_->tm->createDataLayout());
  module.setTargetTriple(impl_->tm->getTargetTriple().str());
  emit(module, "brook_entry");
  impl_->optimize(module);
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return text;
}

}  // namespace brook::jit
