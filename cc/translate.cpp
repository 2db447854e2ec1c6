#include "cc/translate.hpp"

#include "cc/brookplus_bindings.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cc/cxx_types.hpp"
#include "lang/ast.hpp"
#include "runtime/engine.hpp"

namespace brook::cc {

namespace {

namespace fs = std::filesystem;

// A raw string literal holding `text` exactly: the delimiter is one that the
// text never closes early (`)brook"`, else `)brook1"`, …).
std::string raw_literal(const std::string& text) {
  std::string delim = "brook";
  for (int n = 1; text.find(")" + delim + "\"") != std::string::npos; ++n)
    delim = "brook" + std::to_string(n);
  return "R\"" + delim + "(" + text + ")" + delim + "\"";
}

// A C string literal for a file name.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string guard_of(const std::string& stem) {
  std::string g = "BROOK_CC_";
  for (char c : stem)
    g += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(c)) : '_';
  return g + "_H";
}

// Words C++ reserves that C (and so Brook) does not: a parameter so named
// gets a trailing '_'; a function so named gets no wrapper.
bool cxx_only_keyword(const std::string& w) {
  static const char* const kWords[] = {
      "alignas",  "alignof",       "and",         "and_eq",    "asm",       "bitand",
      "bitor",    "catch",         "char8_t",     "char16_t",  "char32_t",  "class",
      "compl",    "concept",       "consteval",   "constexpr", "constinit", "const_cast",
      "co_await", "co_return",     "co_yield",    "decltype",  "delete",    "dynamic_cast",
      "explicit", "export",        "false",       "friend",    "mutable",   "namespace",
      "new",      "noexcept",      "not",         "not_eq",    "nullptr",   "operator",
      "or",       "or_eq",         "private",     "protected", "public",    "reinterpret_cast",
      "requires", "static_assert", "static_cast", "template",  "this",      "thread_local",
      "throw",    "true",          "try",         "typeid",    "typename",  "using",
      "virtual",  "wchar_t",       "xor",         "xor_eq"};
  for (const char* k : kWords)
    if (w == k) return true;
  return false;
}

std::string param_name(const ast::ParamDecl& p) {
  if (p.name.empty()) return "arg" + std::to_string(p.index);
  return cxx_only_keyword(p.name) ? p.name + "_" : p.name;
}

// One callable of the header: its C++ declarations and definitions.
struct Emitted {
  std::string declarations;
  std::string definitions;
};

// Every wrapper holds the process-wide lock from loading the registered
// sources to the end of its launch: any thread may call it (Brook+ programs
// launch from several), and the shared engine is one.
constexpr const char* kLock =
    "std::lock_guard<std::recursive_mutex> "
    "brook_lock(::brook::api::detail::process_session_mutex());\n  ";

bool is_stream_param(const ast::ParamDecl& p) {
  switch (p.pkind) {
    case ast::ParamKind::Input:
    case ast::ParamKind::Iter:
    case ast::ParamKind::Out:
    case ast::ParamKind::Gather:
      return true;
    default:
      return false;
  }
}

class Generator {
 public:
  // BrookGPU's getStreamType((T*)0) for a .br struct T, as brcc generated it
  // in its .cpp: the field list, named for the runtime so that
  // `::brook::stream s(::brook::getStreamType((T*)0), n, -1)` makes a stream
  // of T (brook/brook.hpp, detail::name_stream_type). Inline and kept
  // (gnu::used): every translated file that sees T emits it, the linker keeps
  // one, and C++ files that only call it link to that one.
  void brookgpu_stream_type(const Type* t) {
    const std::string list = types_.brookgpu_type_list(t);
    if (list.empty()) return;
    const std::string cxx = types_.spell(t);
    out_.definitions +=
        "#ifndef BROOK_NO_BROOKGPU_API\nnamespace brook {\ntemplate <>\n[[gnu::used]] inline const StreamType* "
        "getStreamType<::" +
        cxx + ">(::" + cxx + "*) {\n  static const StreamType fields[] = {" + list +
        "};\n  static const bool named = detail::name_stream_type(fields, brook_cc::element<::" +
        cxx + ">::name, sizeof(::" + cxx +
        "));\n  (void)named;\n  brook_cc::engine();  // the .br files loaded, so that the stream's type is known\n  return "
        "fields;\n}\n}  // namespace brook\n#endif\n\n";
  }

  // A kernel: streams as handles (typed when the element type has a C++
  // spelling), constants by value.
  void kernel(const ast::FuncDecl& f) {
    std::vector<std::string> params;
    for (const auto& p : f.params) {
      params.push_back(param(*p, /*reduce_as_value=*/false));
      if (params.back().empty()) {
        out_.declarations += "// kernel " + f.name +
                             ": not callable from C++ in this version: parameter '" + p->name +
                             "' has no C++ spelling\n";
        return;
      }
    }
    add(f, "void", params,
        std::string(kLock) + "brook_cc::engine().call(\"" + f.name + "\"" + arg_list(f) + ");");
    brookgpu_form(f, "call", false);
  }

  // A reduction: one overload folding into a host variable (by reference),
  // one into a stream (block-wise, LANGUAGE.md §7).
  void reduction(const ast::FuncDecl& f) {
    for (bool as_value : {true, false}) {
      std::vector<std::string> params;
      bool ok = true;
      for (const auto& p : f.params) {
        params.push_back(param(*p, as_value));
        ok = ok && !params.back().empty();
      }
      if (!ok) {
        out_.declarations +=
            "// reduce " + f.name + ": its target type has no C++ spelling; only the stream form\n";
        continue;
      }
      add(f, "void", params,
          std::string(kLock) + "brook_cc::engine().reduce_call(\"" + f.name + "\"" + arg_list(f) +
              ");");
      brookgpu_form(f, "reduce_call", as_value);
    }
  }

  // A host function whose parameters and result C++ can pass by value runs in
  // brook's host interpreter; others are named in a comment.
  void host(const ast::FuncDecl& f) {
    ++host_functions_;
    std::string why;
    std::vector<std::string> params;
    for (const auto& p : f.params) {
      std::string d =
          p->type && !p->type->is_array() ? types_.declare(p->type, param_name(*p)) : "";
      if (d.empty() && why.empty())  // the first such parameter
        why = "parameter '" + p->name + "' has type '" + (p->type ? p->type->name() : "?") + "'";
      params.push_back(d);
    }
    std::string result =
        f.return_type && f.return_type->is_void() ? "void" : types_.spell(f.return_type);
    if (result.empty()) why = "it returns '" + (f.return_type ? f.return_type->name() : "?") + "'";
    if (f.is_variadic) why = "it is variadic";
    if (!why.empty()) {
      out_.declarations +=
          "// " + f.name + "(): not callable from C++ in this version: " + why +
          " (host functions run in brook's interpreter, whose memory is its own)\n";
      left_out_.push_back(
          {f.loc, "host function '" + f.name +
                      "' is left out of the generated C++ (not callable from C++): " + why +
                      "; host functions run in brook's interpreter, whose "
                      "memory is its own"});
      return;
    }
    std::string call = std::string(kLock) + "brook_cc::engine().invoke";
    if (result != "void") call += "<" + result + ">";
    call += "(\"" + f.name + "\"" + arg_list(f) + ")";
    add(f, result, params,
        call.insert(std::strlen(kLock), result == "void" ? "" : "return ") + ";");
  }

  void skip(const ast::FuncDecl& f, const std::string& why) {
    out_.declarations += "// " + f.name + ": not callable from C++: " + why + "\n";
  }

  CxxTypes& types() { return types_; }
  const Emitted& emitted() const { return out_; }
  // The functions left out of the output, and why (printed as warnings).
  struct LeftOut {
    SourceLoc loc;
    std::string why;
  };
  const std::vector<LeftOut>& left_out() const { return left_out_; }
  int host_functions() const { return host_functions_; }

 private:
  std::string param(const ast::ParamDecl& p, bool reduce_as_value) {
    std::string name = param_name(p);
    const Type* elem = p.type;
    while (elem && elem->is_array()) elem = elem->elem;  // a gather's element
    if (is_stream_param(p) || (p.pkind == ast::ParamKind::Reduce && !reduce_as_value)) {
      std::string t = types_.spell(elem);
      return t.empty() ? "const brook::AnyStream& " + name
                       : "const brook::Stream<" + t + ">& " + name;
    }
    if (p.pkind == ast::ParamKind::Reduce) {
      std::string t = types_.spell(p.type);
      return t.empty() ? "" : t + "& " + name;
    }
    // Constants as brcc declared them (`const float2& p`), which BrookGPU
    // applications copy into their own prototypes; values bind to it too.
    if (!p.type || p.type->is_array()) return "";
    std::string t = types_.spell(p.type);
    return t.empty() ? "" : "const " + t + "& " + name;
  }

  // The signature BrookGPU's brcc gave the same kernel, which BrookGPU
  // applications declare in their own headers: every stream, gather and
  // iterator a `::brook::stream` by value, constants `const T&`, a reduction
  // into a host variable by reference. The .cpp also defines the form with
  // constants by value (`const T`), which earlier `brook cc` output had and
  // hosts' prototypes may name; the header declares only the first, so no
  // call is ambiguous.
  void brookgpu_form(const ast::FuncDecl& f, const char* launch, bool reduce_as_value) {
    // Without a stream parameter the two forms would be one signature.
    bool any_stream = false;
    for (const auto& p : f.params)
      any_stream = any_stream || is_stream_param(*p) ||
                   (p->pkind == ast::ParamKind::Reduce && !reduce_as_value);
    if (!any_stream) return;
    std::vector<std::string> params, by_value;
    std::string args;
    for (const auto& p : f.params) {
      std::string name = param_name(*p);
      bool as_stream =
          is_stream_param(*p) || (p->pkind == ast::ParamKind::Reduce && !reduce_as_value);
      if (as_stream) {
        params.push_back(std::string(p->pkind == ast::ParamKind::Iter ? "::brook::iter " : "::brook::stream ") +
                         name);
        by_value.push_back(params.back());
        args += ", " + name + ".handle()";
        continue;
      }
      std::string d = param(*p, reduce_as_value);
      if (d.empty()) return;
      params.push_back(d);
      by_value.push_back(
          p->pkind == ast::ParamKind::Reduce ? d : "const " + types_.declare(p->type, name));
      args += ", " + name;
    }
    const std::string body =
        std::string(kLock) + "brook_cc::engine()." + launch + "(\"" + f.name + "\"" + args + ");";
    out_.declarations += "#ifndef BROOK_NO_BROOKGPU_API\n";
    out_.definitions += "#ifndef BROOK_NO_BROOKGPU_API\n";
    add(f, "void", params, body);
    if (by_value != params) {
      out_.definitions +=
          "// The form with constants by value (earlier `brook cc` output), for prototypes naming "
          "it.\n";
      out_.definitions += signature(f, "void", by_value) + " {\n  " + body + "\n}\n\n";
    }
    out_.declarations += "#endif\n";
    out_.definitions += "#endif\n";
  }

  static std::string arg_list(const ast::FuncDecl& f) {
    std::string out;
    for (const auto& p : f.params) out += ", " + param_name(*p);
    return out;
  }

  static std::string signature(const ast::FuncDecl& f, const std::string& result,
                               const std::vector<std::string>& params) {
    std::string sig = result + " " + f.name + "(";
    for (size_t i = 0; i < params.size(); ++i) sig += (i ? ", " : "") + params[i];
    return sig + ")";
  }

  void add(const ast::FuncDecl& f, const std::string& result,
           const std::vector<std::string>& params, const std::string& body) {
    std::string sig = signature(f, result, params);
    out_.declarations += sig + ";\n";
    out_.definitions += sig + " {\n  " + body + "\n}\n\n";
  }

  CxxTypes types_;
  Emitted out_;
  std::vector<LeftOut> left_out_;
  int host_functions_ = 0;
};

bool write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::cerr << "brook: cannot write '" << path.string() << "'\n";
    return false;
  }
  return true;
}

}  // namespace

int translate(const Request& request) {
  if (request.inputs.empty()) {
    std::cerr << "brook: cc needs at least one .br file (try 'brook cc --help')\n";
    return 2;
  }
  // The front end alone (kernels stay on the interpreter): nothing runs.
  EngineOptions options;
  options.backend = "interp";
  options.preprocess = request.preprocess;
  options.color = request.color;
  options.error_limit = request.error_limit;
  Engine engine(options);
  std::vector<std::string> texts;
  bool ok = true;
  for (const std::string& input : request.inputs) {
    std::ifstream in(input, std::ios::binary);
    if (!in || fs::is_directory(input)) {
      std::cerr << "brook: cannot open '" << input << "'\n";
      return 2;
    }
    texts.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    ok = engine.compile_source(input, texts.back()) && ok;
  }
  if (!ok) return 1;

  fs::path base =
      request.output.empty() ? fs::path(request.inputs[0]).stem() : fs::path(request.output);
  if (request.brookplus) {
    std::vector<const ast::Program*> programs;
    for (const auto& program : engine.front_end().programs()) programs.push_back(program.get());
    std::vector<BrookSource> sources;
    for (size_t i = 0; i < texts.size(); ++i) sources.push_back({request.inputs[i], texts[i]});
    BrookPlusFiles files = brookplus_bindings(programs, sources, base.string());
    std::error_code ec;
    if (base.has_parent_path()) fs::create_directories(base.parent_path(), ec);
    fs::path h = base, cpp = base;
    h += ".h";
    cpp += ".cpp";
    return write_file(h, files.header) && write_file(cpp, files.source) ? 0 : 2;
  }

  Generator gen;
  // The .br files' struct types: anonymous ones named by their typedefs
  // first (a kernel's parameter may use either), then each defined in the
  // header with BrookGPU's getStreamType list where it has one.
  std::vector<const Type*> structs;
  std::vector<std::pair<const Type*, std::string>> tag_typedefs;  // typedef struct tag {…} Name;
  for (const auto& program : engine.front_end().programs()) {
    for (const ast::StmtPtr& item : program->items) {
      const auto* ds = item->as<ast::DeclStmt>();
      if (!ds) continue;
      for (const ast::DeclPtr& d : ds->decls) {
        if (const auto* td = d->as<ast::TypedefDecl>()) {
          const Type* t = td->type;
          if (t && t->is_struct() && t->decl && t->decl->name.empty()) {
            gen.types().name_anonymous(t, td->name);
            structs.push_back(t);
          } else if (t && t->is_struct() && t->decl && t->decl->name != td->name) {
            tag_typedefs.emplace_back(t, td->name);
          }
        } else if (const auto* sd = d->as<ast::StructDecl>()) {
          if (sd->is_definition && sd->type && !sd->name.empty()) structs.push_back(sd->type);
        }
      }
    }
  }
  for (const Type* t : structs) gen.brookgpu_stream_type(t);
  for (const auto& [t, name] : tag_typedefs) gen.types().add_typedef(t, name);
  bool has_main = false;
  bool has_statements = false;  // top-level statements `brook run` would run
  for (const auto& program : engine.front_end().programs()) {
    for (const ast::StmtPtr& item : program->items) {
      const auto* ds = item->as<ast::DeclStmt>();
      if (!ds) {
        has_statements = true;
        continue;
      }
      for (const ast::DeclPtr& d : ds->decls) {
        const auto* f = d->as<ast::FuncDecl>();
        if (!f || !f->body || f->name.empty() || f->name[0] == '<') continue;
        if (cxx_only_keyword(f->name)) {
          gen.skip(*f, "its name is a C++ keyword");
        } else if (f->fkind == ast::FuncKind::Kernel) {
          gen.kernel(*f);
        } else if (f->fkind == ast::FuncKind::Reduce) {
          gen.reduction(*f);
        } else if (f->name == "main") {
          has_main = true;
        } else {
          gen.host(*f);
        }
      }
    }
  }

  // A host function left out is a link error in the C++ program that calls
  // it: say so here, where the reason is known.
  for (const Generator::LeftOut& w : gen.left_out()) {
    const SourceManager& sm = engine.front_end().sources();
    std::cerr << (w.loc.valid() ? sm.path(w.loc.file) + ":" + std::to_string(w.loc.line) + ":" +
                                      std::to_string(w.loc.col) + ": "
                                : std::string())
              << "warning: " << w.why << "\n";
  }

  std::string stem = base.filename().string();
  std::string sources;
  for (const std::string& s : request.inputs) sources += " " + s;
  std::string banner = "// Generated by `brook cc` from" + sources + "; do not edit.\n";

  // One header for both kinds of host, chosen when it is included: a host
  // that included <brook/brook.hpp> first (BrookGPU's applications, before
  // their kernel prototypes; embedders) gets the embedding API's bindings
  // and BrookGPU's; a Brook+ host, which includes only the generated header
  // (brcc's brookgenfiles/NAME.h) or Brook+'s own headers first, gets
  // Brook+'s functors over brook/Stream.h, as brcc wrote them. The two
  // cannot share a translation unit (each defines brook::Stream and
  // float4), so the .cpp defines the embedding half and the Brook+ half is
  // inline here over the Brook source the .cpp defines. Define
  // BROOK_CC_BROOKPLUS or BROOK_CC_BROOKGPU to choose.
  // The symbols are external: named by the stem and a hash of the output's
  // path, so two generated files of one stem can share a program.
  std::string ident;
  for (char c : stem) ident += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  uint32_t hash = 2166136261u;  // FNV-1a: the same on every build of brook
  for (char c : fs::absolute(base).lexically_normal().string())
    hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08x", hash);
  ident += std::string("_") + hex;
  const std::string plus_source = "brook_cc_plus_source_" + ident;
  const std::string plus_name = "brook_cc_plus_name_" + ident;
  // Included alone, the header is Brook+'s where Brook+'s brcc would have
  // written it: in brookgenfiles/, for a .br of kernels and reductions only
  // (Brook+ had no host code in .br files; examples/cxx, whose .br has, is
  // an embedding host in brookgenfiles/ too).
  const bool brookplus_alone = base.parent_path().filename() == "brookgenfiles" &&
                               gen.host_functions() == 0 && !has_main && !has_statements;
  std::vector<const ast::Program*> programs;
  for (const auto& program : engine.front_end().programs()) programs.push_back(program.get());

  std::string header =
      banner + "#ifndef " + guard_of(stem) + "\n#define " + guard_of(stem) + "\n\n";
  header +=
      "#if defined(BROOK_CC_BROOKPLUS) || (!defined(BROOK_BROOK_HPP) && "
      "!defined(BROOK_CC_BROOKGPU) && \\\n"
      "                                    (defined(BROOK_CC_TYPE_float2) || " +
      std::string(brookplus_alone ? "1" : "0") +
      "))\n"
      "// A Brook+ host (brook/Stream.h included first, or this header alone when\n"
      "// it is in brookgenfiles/ with kernels only, as Brook+'s brcc wrote it).\n";
  header += brookplus_inline_bindings(programs, plus_source, plus_name);
  header += "#else\n// A BrookGPU or embedding host: brook/brook.hpp's API.\n";
  header += support_text();
  header += gen.types().definitions();
  header += gen.emitted().declarations;
  header += "#endif\n\n#endif\n";

  std::string plus_text;
  for (const std::string& t : texts) plus_text += t + (t.empty() || t.back() == '\n' ? "" : "\n");
  std::string source = banner + "#include <brook/brook.hpp>\n\n#include \"" + stem + ".h\"\n\n";
  source += "// The Brook source of the header's Brook+ bindings, loaded before a Brook+\n";
  source += "// program's first stream is made (libbrook).\n";
  source += "extern const char " + plus_source + "[] = " + raw_literal(plus_text) + ";\n";
  source += "extern const char " + plus_name + "[] = " + quoted(request.inputs[0]) + ";\n";
  source +=
      "namespace brook::plus {\nvoid register_source(const char* text, const char* name);\n}\n\n";
  source += "namespace {\n\n";
  source +=
      "[[maybe_unused]] const bool kRegisteredBrookPlus =\n    (::brook::plus::register_source(" +
      plus_source + ", " + plus_name + "), true);\n\n";
  std::string defines;
  for (const std::string& d : request.preprocess.defines)
    defines += (defines.empty() ? "" : ", ") + quoted(d);
  for (size_t i = 0; i < texts.size(); ++i) {
    std::string id = std::to_string(i);
    source += "const char kSource" + id + "[] = " + raw_literal(texts[i]) + ";\n";
    std::string dirs = quoted(fs::absolute(request.inputs[i]).parent_path().string());
    for (const std::string& d : request.preprocess.include_dirs)
      dirs += ", " + quoted(fs::absolute(d).string());
    source += "const brook_cc::Register kRegister" + id + "(" + quoted(request.inputs[i]) +
              ", kSource" + id + ", {" + defines + "}, {" + dirs + "});\n\n";
  }
  // Every file the inputs #included from disk, so the program needs none of
  // them at run time (brcc's output did not either: it held the preprocessed text).
  const SourceManager& files = engine.front_end().sources();
  for (size_t i = 0; i < files.file_count(); ++i) {
    const std::string& path = files.path(static_cast<uint32_t>(i));
    if (std::find(request.inputs.begin(), request.inputs.end(), path) != request.inputs.end()) continue;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) continue;
    const std::string absolute = fs::absolute(path, ec).lexically_normal().string();
    source += "const brook_cc::Embed kEmbed" + std::to_string(i) + "(" + quoted(absolute) + ", " +
              raw_literal(std::string(files.text(static_cast<uint32_t>(i)))) + ");\n";
  }
  source += "}  // namespace\n\n" + gen.emitted().definitions;
  if (has_main) {
    source +=
        "// The .br program's main, as `brook run` runs it.\n"
        "int main(int argc, char** argv) { return brook_cc::run_main(argc, argv); }\n";
  } else if (has_statements) {
    // Top-level statements alone make a program for `brook run`; here too,
    // unless the C++ program has its own main (then they run on first use
    // of the engine), so this main is weak.
    source +=
        "// The .br file's top-level statements as a program, unless C++ defines main.\n"
        "__attribute__((weak)) int main(int argc, char** argv) { return brook_cc::run_main(argc, "
        "argv); }\n";
  }

  std::error_code ec;
  if (base.has_parent_path()) fs::create_directories(base.parent_path(), ec);
  fs::path h = base, cpp = base;
  h += ".h";
  cpp += ".cpp";
  if (!write_file(h, header) || !write_file(cpp, source)) return 2;
  return 0;
}

}  // namespace brook::cc
