#include "backends/opencl/cl_runtime.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace brook::opencl {

namespace {

std::string err_text(const cl::Error& e) {
  return std::string(e.what()) + " (OpenCL error " + std::to_string(e.err()) + ")";
}

uint64_t fnv1a(const std::string& s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

// The driver's compiler runs inside this process; if it crashes (PoCL's
// clang has segfaulted on generated code, its LLVM backend aborted on another
// program at the kernel's first launch), the process cannot go on, but it
// must not die unannounced. The message is formatted beforehand, so the
// handler only calls write(); then the signal takes its default action.
CrashNotice::CrashNotice(const std::string& what) {
  std::snprintf(message_, sizeof message_,
                "brook: the OpenCL driver crashed while compiling %s (a bug in the driver or in "
                "brook's generated OpenCL C; BROOK_OPENCL_DUMP=DIR keeps the source)\n",
                what.c_str());
  active_ = this;
  struct sigaction sa {};
  sa.sa_handler = &CrashNotice::handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_NODEFER;
  for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &sa, &saved_[i]);
}

CrashNotice::~CrashNotice() {
  for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &saved_[i], nullptr);
  active_ = nullptr;
}

void CrashNotice::handler(int sig) {
  if (CrashNotice* n = active_) {
    ssize_t ignored = write(STDERR_FILENO, n->message_, std::strlen(n->message_));
    (void)ignored;
  }
  // SA_RESETHAND restored the default action: re-raise to die of the signal.
  raise(sig);
}

std::vector<cl::Device> all_devices() {
  std::vector<cl::Device> out;
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error&) {
    return out;  // no ICD or no platform: the caller explains
  }
  for (cl::Platform& p : platforms) {
    std::vector<cl::Device> ds;
    try {
      p.getDevices(CL_DEVICE_TYPE_ALL, &ds);
    } catch (const cl::Error&) {
      continue;
    }
    out.insert(out.end(), ds.begin(), ds.end());
  }
  return out;
}

std::string describe_device(const cl::Device& d) {
  try {
    cl::Platform p(d.getInfo<CL_DEVICE_PLATFORM>());
    std::string ext = d.getInfo<CL_DEVICE_EXTENSIONS>();
    std::string s = p.getInfo<CL_PLATFORM_NAME>() + " / " + d.getInfo<CL_DEVICE_NAME>() + " (" +
                    d.getInfo<CL_DEVICE_OPENCL_C_VERSION>();
    if (ext.find("cl_khr_fp64") != std::string::npos) s += ", fp64";
    s += ", " + std::to_string(d.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>() >> 20) + " MiB)";
    return s;
  } catch (const cl::Error& e) {
    return "(unreadable device: " + err_text(e) + ")";
  }
}

ClRuntime::ClRuntime(int device_index, std::string cache_dir, std::string dump_dir)
    : cache_dir_(std::move(cache_dir)), dump_dir_(std::move(dump_dir)) {
  if (device_index < 0)
    throw ClError("OpenCL device indices start at 0, not " + std::to_string(device_index));
  std::vector<cl::Device> devices = all_devices();
  if (devices.empty()) {
    throw ClError(
        "no OpenCL platform or device found (install an OpenCL driver, e.g. pocl-opencl-icd)");
  }
  if (static_cast<size_t>(device_index) >= devices.size()) {
    throw ClError("OpenCL device " + std::to_string(device_index) + " does not exist; there " +
                  (devices.size() == 1 ? "is 1 device"
                                       : "are " + std::to_string(devices.size()) + " devices") +
                  " (see `brook devices`)");
  }
  device_ = devices[static_cast<size_t>(device_index)];
  try {
    context_ = cl::Context(device_);
    queue_ = cl::CommandQueue(context_, device_);
    fp64_ = device_.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_khr_fp64") != std::string::npos;
  } catch (const cl::Error& e) {
    throw ClError("cannot open OpenCL device " + std::to_string(device_index) + ": " + err_text(e));
  }
}

cl::Program& ClRuntime::program(const std::string& source, const std::string& what) {
  auto found = programs_.find(source);
  if (found != programs_.end()) return found->second;
  auto start = std::chrono::steady_clock::now();
  std::string ident;
  try {
    ident = device_.getInfo<CL_DEVICE_NAME>() + "|" + device_.getInfo<CL_DRIVER_VERSION>() + "|" +
            kBuildOptions;
  } catch (const cl::Error&) {
  }
  char name[40];
  std::snprintf(name, sizeof name, "%016llx.bin",
                static_cast<unsigned long long>(fnv1a(source, fnv1a(ident))));
  // Every generated program lands in DUMP/<hash>.cl (for reading what PoCL gets).
  if (!dump_dir_.empty())
    std::ofstream(std::filesystem::path(dump_dir_) / (std::string(name, 16) + ".cl")) << source;
  const bool use_disk_cache = !cache_dir_.empty();
  std::filesystem::path cached =
      use_disk_cache ? std::filesystem::path(cache_dir_) / name : std::filesystem::path();
  cl::Program program;
  bool built = false;
  if (use_disk_cache) {
    std::ifstream in(cached, std::ios::binary);
    if (in) {
      std::vector<unsigned char> bin((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
      try {
        cl::Program::Binaries bins{bin};
        program = cl::Program(context_, {device_}, bins);
        program.build({device_}, kBuildOptions);
        built = true;
        ++cache_hits;
      } catch (const cl::Error&) {
        built = false;  // a stale or foreign binary: rebuild from source
      }
    }
  }
  // A driver whose own cache is shared by several processes (PoCL's kcache)
  // can lose a temporary file to another process ("unable to rename
  // temporary ... No such file or directory"); such a build is tried again.
  for (int attempt = 0; !built; ++attempt) {
    try {
      program = cl::Program(context_, source);
      {
        CrashNotice notice(what);
        program.build({device_}, kBuildOptions);
      }
      ++compiles;
      built = true;
    } catch (const cl::Error& e) {
      std::string log;
      try {
        log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_);
      } catch (const cl::Error&) {
      }
      const bool file_race = log.find("unable to rename temporary") != std::string::npos ||
                             log.find("No such file or directory") != std::string::npos;
      if (file_race && attempt < 2) continue;
      throw BuildError("the OpenCL compiler rejected the generated kernel: " + err_text(e), log);
    }
    if (use_disk_cache) {
      try {
        std::vector<std::vector<unsigned char>> bins;
        {
          // PoCL compiles the kernels' machine code when asked for the binary.
          CrashNotice notice(what);
          bins = program.getInfo<CL_PROGRAM_BINARIES>();
        }
        if (!bins.empty() && !bins[0].empty()) {
          std::error_code ec;
          std::filesystem::create_directories(cache_dir_, ec);
          std::filesystem::path tmp = cached;
          tmp += ".tmp" + std::to_string(std::rand());
          std::ofstream out(tmp, std::ios::binary);
          out.write(reinterpret_cast<const char*>(bins[0].data()),
                    static_cast<std::streamsize>(bins[0].size()));
          out.close();
          std::filesystem::rename(tmp, cached,
                                  ec);  // atomic: concurrent runs never see half a file
          if (ec) std::filesystem::remove(tmp, ec);
        }
      } catch (const std::exception&) {
        // The cache is an optimisation; failing to write it is not an error.
      }
    }
  }
  build_ms +=
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return programs_.emplace(source, std::move(program)).first->second;
}

}  // namespace brook::opencl
