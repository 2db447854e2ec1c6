// Brook+ bindings from the typed AST. Parameter forms follow brcc's table
// (BROOKPLUS.md §2): streams, gathers and scatter outputs as
// `const ::brook::Stream<T>&`, sized gather arrays as constant arrays,
// constants by value, `reduce T r<>` as two overloads (a stream and `T&`),
// `reduce T r` as `T&` too. Non-void kernels are subkernels and get no functor.
#include "cc/brookplus_bindings.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include "lang/types.hpp"

namespace brook::cc {

namespace {

// Names of the .br's struct types: the typedef name when there is one (what
// the Brook source can declare a stream of), else `struct Tag`.
struct StructNames {
  std::map<const ast::StructDecl*, std::string> cxx;    // C++ spelling
  std::map<const ast::StructDecl*, std::string> brook;  // Brook spelling
  std::map<const ast::StructDecl*, std::vector<std::string>> typedefs;
};

std::string vector_prefix(TypeKind k) {
  switch (k) {
    case TypeKind::Float:
      return "float";
    case TypeKind::Double:
      return "double";
    case TypeKind::Int:
      return "int";
    case TypeKind::UInt:
      return "uint";
    case TypeKind::Char:
      return "char";
    case TypeKind::UChar:
      return "uchar";
    case TypeKind::Short:
      return "short";
    case TypeKind::UShort:
      return "ushort";
    default:
      return "";
  }
}

std::string scalar_cxx(TypeKind k) {
  switch (k) {
    case TypeKind::Bool:
      return "bool";
    case TypeKind::Char:
      return "char";
    case TypeKind::UChar:
      return "unsigned char";
    case TypeKind::Short:
      return "short";
    case TypeKind::UShort:
      return "unsigned short";
    case TypeKind::Int:
      return "int";
    case TypeKind::UInt:
      return "unsigned int";
    case TypeKind::Long:
      return "long";
    case TypeKind::ULong:
      return "unsigned long";
    case TypeKind::Float:
      return "float";
    case TypeKind::Double:
      return "double";
    default:
      return "";
  }
}

// The C++ type of a stream element, constant or field; empty when Brook+
// has no host form for it.
std::string cxx_type(const Type* t, const StructNames& names) {
  if (!t) return "";
  if (t->is_scalar()) return scalar_cxx(t->kind);
  if (t->is_vector()) {
    std::string p = vector_prefix(t->elem->kind);
    if (!p.empty()) return p + std::to_string(t->count);
    std::string c = scalar_cxx(t->elem->kind);
    return c.empty() ? "" : "::brook::plus::Vector<" + c + ", " + std::to_string(t->count) + ">";
  }
  if (t->is_struct() && t->decl) {
    auto it = names.cxx.find(t->decl);
    return it == names.cxx.end() ? "" : it->second;
  }
  return "";
}

// `T name` or `T name[3][2]` for a field of array type.
std::string declarator(const Type* t, const std::string& name, const StructNames& names) {
  std::string dims;
  while (t && t->is_array()) {
    dims += "[" + std::to_string(t->count) + "]";
    t = t->elem;
  }
  std::string base = cxx_type(t, names);
  return base.empty() ? "" : base + " " + name + dims;
}

StructNames collect_struct_names(std::span<const ast::Program* const> programs) {
  StructNames names;
  for (const ast::Program* p : programs) {
    for (const ast::StmtPtr& item : p->items) {
      const auto* ds = item->as<ast::DeclStmt>();
      if (!ds) continue;
      for (const ast::DeclPtr& d : ds->decls) {
        if (const auto* td = d->as<ast::TypedefDecl>()) {
          if (!td->type || !td->type->is_struct() || !td->type->decl) continue;
          const ast::StructDecl* sd = td->type->decl;
          names.typedefs[sd].push_back(td->name);
          if (sd->name.empty() && !names.cxx.count(sd)) names.cxx[sd] = td->name;
          if (!names.brook.count(sd) || names.brook[sd].starts_with("struct ") ||
              names.brook[sd].starts_with("union "))
            names.brook[sd] = td->name;
        } else if (const auto* sd = d->as<ast::StructDecl>()) {
          if (!sd->is_definition || sd->name.empty()) continue;
          names.cxx[sd] = sd->name;
          if (!names.brook.count(sd))
            names.brook[sd] = std::string(sd->is_union ? "union " : "struct ") + sd->name;
        }
      }
    }
  }
  return names;
}

std::vector<const ast::StructDecl*> structs_in_order(
    std::span<const ast::Program* const> programs) {
  std::vector<const ast::StructDecl*> out;
  auto add = [&](const ast::StructDecl* s) {
    if (s && s->is_definition && std::find(out.begin(), out.end(), s) == out.end())
      out.push_back(s);
  };
  for (const ast::Program* p : programs) {
    for (const ast::StmtPtr& item : p->items) {
      const auto* ds = item->as<ast::DeclStmt>();
      if (!ds) continue;
      for (const ast::DeclPtr& d : ds->decls) {
        if (const auto* td = d->as<ast::TypedefDecl>()) {
          if (td->type && td->type->is_struct()) add(td->type->decl);
        } else if (const auto* sd = d->as<ast::StructDecl>()) {
          add(sd);
        }
      }
    }
  }
  return out;
}

// The declared sizes of a gather parameter `T g[3][2]`, "" when any is `[]`
// or not a literal (then it is a gather stream).
std::string sized_dims(const ast::ParamDecl& p, std::size_t* elements) {
  std::string dims;
  *elements = 1;
  if (p.type_syntax.array_dims.empty()) return "";
  for (const ast::ExprPtr& e : p.type_syntax.array_dims) {
    const auto* lit = e ? e->as<ast::IntLit>() : nullptr;
    if (!lit || lit->value == 0) return "";
    dims += "[" + std::to_string(lit->value) + "]";
    *elements *= lit->value;
  }
  return dims;
}

std::string raw_string(const std::string& text) {
  std::string delim = "brook";
  for (int n = 0; text.find(")" + delim + "\"") != std::string::npos; ++n)
    delim = "brook" + std::to_string(n);
  return "R\"" + delim + "(" + text + ")" + delim + "\"";
}

struct Overload {
  std::string params;  // the C++ parameter list
  std::string body;    // the pushes
};

// The functor's overloads for kernel `f` (two when a reduce target can be a
// stream or a host variable).
std::vector<Overload> overloads(const ast::FuncDecl& f, const StructNames& names,
                                std::string* unsupported) {
  std::vector<Overload> out(1);
  for (const auto& pp : f.params) {
    const ast::ParamDecl& p = *pp;
    std::string elem = cxx_type(p.type && p.type->is_array() ? nullptr : p.type, names);
    if (p.pkind == ast::ParamKind::Gather) {
      const Type* e = p.type;
      while (e && e->is_array()) e = e->elem;
      elem = cxx_type(e, names);
    }
    if (elem.empty()) {
      *unsupported = "parameter '" + p.name + "' of type " + (p.type ? p.type->name() : "?");
      return {};
    }
    std::string stream = "const ::brook::Stream<" + elem + ">& " + p.name;
    std::size_t elements = 0;
    std::string dims =
        p.pkind == ast::ParamKind::Gather && !p.scatter ? sized_dims(p, &elements) : "";
    std::vector<Overload> next;
    for (const Overload& o : out) {
      std::string sep = o.params.empty() ? "" : ", ";
      switch (p.pkind) {
        case ast::ParamKind::Const:
        case ast::ParamKind::Value:
          next.push_back({o.params + sep + "const " + elem + " " + p.name,
                          o.body + "  ::brook::plus::push_value(l, " + p.name + ");\n"});
          break;
        case ast::ParamKind::Reduce:
          // A stream or a host variable (the front end reads `reduce T r`
          // as `reduce T r<>`, so both get both forms).
          next.push_back({o.params + sep + stream, o.body + "  l.stream(" + p.name + ");\n"});
          next.push_back({o.params + sep + elem + "& " + p.name,
                          o.body + "  ::brook::plus::push_reduce(l, " + p.name + ");\n"});
          break;
        default:
          if (!dims.empty() && elements <= 4096) {
            next.push_back({o.params + sep + "const " + elem + " " + p.name + dims,
                            o.body + "  l.array(" + p.name + ", sizeof(" + elem + ") * " +
                                std::to_string(elements) + ", ::brook::plus::StreamType<" + elem +
                                ">::name, \"" + dims + "\");\n"});
          } else {
            next.push_back({o.params + sep + stream, o.body + "  l.stream(" + p.name + ");\n"});
          }
      }
    }
    out = std::move(next);
  }
  return out;
}

}  // namespace

namespace {

// The structs' definitions and the functor classes; each launch's definition
// goes to `defs` (the .cpp), or inline after its class when `inline_source`
// names the source's symbol.
std::string bindings_body(std::span<const ast::Program* const> programs, std::string* defs,
                          const std::string& inline_source, const std::string& inline_name) {
  StructNames names = collect_struct_names(programs);
  std::string h;
  for (const ast::StructDecl* s : structs_in_order(programs)) {
    auto cxx = names.cxx.find(s);
    if (cxx == names.cxx.end() || !s->type) continue;
    std::string fields;
    bool ok = true;
    for (const ast::FieldDecl& fd : s->fields) {
      std::string d = declarator(fd.type, fd.name, names);
      if (d.empty()) ok = false;
      fields += "  " + d + ";\n";
    }
    if (!ok) continue;  // a field Brook+ hosts cannot hold: no host form
    h += std::string(s->is_union ? "union " : "struct ") + cxx->second + " {\n" + fields + "};\n";
    for (const std::string& t : names.typedefs[s])
      if (t != cxx->second) h += "typedef " + cxx->second + " " + t + ";\n";
    h += "static_assert(sizeof(" + cxx->second + ") == " + std::to_string(s->type->size) +
         ", \"the C++ layout of " + cxx->second + " differs from Brook's\");\n";
    h += "template <>\nstruct brook::plus::StreamType<" + cxx->second +
         "> {\n  static constexpr const char* name = \"" + names.brook[s] + "\";\n};\n\n";
  }
  const bool in_header = !inline_source.empty();
  const std::string source = in_header ? inline_source : "brook_source";
  const std::string source_name = in_header ? inline_name : "brook_source_name";
  for (const ast::Program* p : programs) {
    for (const ast::StmtPtr& item : p->items) {
      const auto* ds = item->as<ast::DeclStmt>();
      if (!ds) continue;
      for (const ast::DeclPtr& d : ds->decls) {
        const auto* f = d->as<ast::FuncDecl>();
        if (!f || !f->body || f->fkind == ast::FuncKind::Host) continue;
        if (f->return_type && !f->return_type->is_void()) continue;  // a subkernel
        std::string unsupported;
        std::vector<Overload> forms = overloads(*f, names, &unsupported);
        std::string cls = "__" + f->name;
        if (forms.empty()) {
          h += "// " + f->name + ": no Brook+ binding (" + unsupported + ")\n\n";
          continue;
        }
        std::string c;
        h += "class " + cls + " {\n public:\n";
        for (const Overload& o : forms) {
          h += "  void operator()(" + o.params + ");\n";
          c += std::string(in_header ? "inline " : "") + "void " + cls + "::operator()(" +
               o.params + ") {\n";
          c += "  ::brook::plus::Launch l(" + source + ", " + source_name + ", \"" + f->name +
               "\");\n";
          c += o.body + "  l.run(&brook_domain_);\n}\n";
        }
        h += "  EXTENDCLASS();\n};\n";
        if (in_header) {
          h += c + "inline __THREAD__ " + cls + " " + f->name + ";\n\n";
        } else {
          h += "extern __THREAD__ " + cls + " " + f->name + ";\n\n";
          *defs += c + "__THREAD__ " + cls + " " + f->name + ";\n\n";
        }
      }
    }
  }
  return h;
}

}  // namespace

std::string brookplus_inline_bindings(std::span<const ast::Program* const> programs,
                                      const std::string& source_symbol,
                                      const std::string& name_symbol) {
  std::string unused;
  return "#include \"brook/Stream.h\"\n#include \"brook/KernelInterface.h\"\n\nextern const char " +
         source_symbol + "[];\nextern const char " + name_symbol + "[];\n\n" +
         bindings_body(programs, &unused, source_symbol, name_symbol);
}

BrookPlusFiles brookplus_bindings(std::span<const ast::Program* const> programs,
                                  std::span<const BrookSource> sources, std::string_view base) {
  std::string stem(base.substr(
      base.find_last_of('/') == std::string_view::npos ? 0 : base.find_last_of('/') + 1));
  std::string guard = "_";
  for (char c : stem)
    guard += std::isalnum(static_cast<unsigned char>(c)) ? char(std::toupper(c)) : '_';
  guard += "_AUTO_GENERATED_H_";

  BrookPlusFiles files;
  std::string& h = files.header;
  h += "// Generated by `brook cc --brookplus` from";
  for (const BrookSource& s : sources) h += " " + s.name;
  h += ": Brook+ bindings. Do not edit.\n";
  h += "#ifndef " + guard + "\n#define " + guard + "\n\n";
  h += "#include \"brook/Stream.h\"\n#include \"brook/KernelInterface.h\"\n\n";

  std::string& c = files.source;
  c += "// Generated by `brook cc --brookplus`: the kernels' Brook source, compiled at\n";
  c += "// run time by the process's engine ($BROOK_BACKEND), and their launches.\n";
  c += "#include \"" + stem + ".h\"\n\n";
  c += "namespace brook::plus {\n";
  c += "void register_source(const char* text, const char* name);  // in libbrook\n";
  c += "}\n\nnamespace {\n";
  std::string text;
  for (const BrookSource& s : sources)
    text += s.text + (s.text.empty() || s.text.back() == '\n' ? "" : "\n");
  c += "const char brook_source[] = " + raw_string(text) + ";\n";
  c += "const char brook_source_name[] = \"" +
       (sources.empty() ? stem + ".br" : sources.front().name) + "\";\n";
  c += "// Loaded before the first stream is made (one may be of a struct declared here).\n";
  c += "[[maybe_unused]] const bool brook_source_registered =\n";
  c += "    (::brook::plus::register_source(brook_source, brook_source_name), true);\n";
  c += "}  // namespace\n\n";

  std::string defs;
  h += bindings_body(programs, &defs, "", "");
  c += defs;
  h += "#endif  // " + guard + "\n";
  return files;
}

}  // namespace brook::cc
