// Engine::definitions: what a session has defined, for the REPL's `:info`.
// Written over the front end's public view of the programs, so it sees what
// completion and `:type` see.
#include <unordered_set>

#include "lang/ast_dump.hpp"
#include "lang/sema.hpp"
#include "runtime/engine.hpp"

namespace brook {

namespace {

std::string shape_text(const std::vector<int64_t>& extents) {
  std::string shape;
  for (int64_t e : extents) shape += (shape.empty() ? "" : ", ") + std::to_string(e);
  return "<" + shape + ">";
}

// `float xs[4]`, as C declares it (pointers and functions keep the type's own spelling).
std::string declaration_text(const Type* type, const std::string& name) {
  std::string dims;
  while (type && type->is_array()) {
    dims += '[';
    if (type->count) dims += std::to_string(type->count);
    dims += ']';
    type = type->elem;
  }
  return (type ? type->name() : std::string("?")) + " " + name + dims;
}

}  // namespace

std::vector<Engine::Definition> Engine::definitions() {
  std::unordered_map<std::string, std::string> shapes;  // live streams' shapes
  for (const StreamInfo& s : live_streams()) shapes[s.name] = shape_text(s.extents);
  FrontEnd& front = front_end();
  std::vector<Definition> out;
  std::unordered_set<std::string> seen;
  // Newest programs first: a REPL session may have redefined a name.
  const auto& programs = front.programs();
  for (auto p = programs.rbegin(); p != programs.rend(); ++p) {
    for (const ast::StmtPtr& item : (*p)->items) {
      const auto* ds = item->as<ast::DeclStmt>();
      if (!ds) continue;
      for (const ast::DeclPtr& d : ds->decls) {
        if (d->name.empty() || d->name[0] == '<' || seen.count(d->name)) continue;
        if (const auto* sd = d->as<ast::StructDecl>()) {
          if (!sd->is_definition || seen.count("struct " + sd->name)) continue;
          seen.insert("struct " + sd->name);
          std::string fields =
              std::to_string(sd->fields.size()) + (sd->fields.size() == 1 ? " field" : " fields");
          out.push_back({"struct", sd->name,
                         (sd->is_union ? "union " : "struct ") + sd->name + " { " + fields + " }"});
          continue;
        }
        const ast::Decl* current = front.sema().lookup_global(d->name);
        if (!current) continue;
        seen.insert(d->name);
        if (const auto* f = current->as<ast::FuncDecl>()) {
          const char* kind = f->fkind == ast::FuncKind::Kernel   ? "kernel"
                             : f->fkind == ast::FuncKind::Reduce ? "reduction"
                                                                 : "function";
          out.push_back({kind, f->name, signature_text(f->defined())});
        } else if (const auto* v = current->as<ast::VarDecl>()) {
          if (v->is_stream) {
            const Type* elem = v->type && v->type->elem ? v->type->elem : v->type;
            auto shape = shapes.find(v->name);
            std::string extents = shape != shapes.end() ? shape->second : "<> (not declared yet)";
            out.push_back({"stream", v->name,
                           (v->is_iter ? "iter " : "") + (elem ? elem->name() : "?") + " " +
                               v->name + extents});
          } else {
            out.push_back({"variable", v->name, declaration_text(v->type, v->name)});
          }
        } else if (const auto* t = current->as<ast::TypedefDecl>()) {
          out.push_back(
              {"type", t->name,
               "typedef " + (t->type ? t->type->name() : std::string("?")) + " " + t->name});
        }
      }
    }
  }
  // Macros last: a name both defined in C and as a macro shows the C one
  // first, which is what `:info NAME` then prints.
  for (MacroTable::Definition& m : front.macros().user_definitions())
    out.push_back({"macro", std::move(m.name), std::move(m.text)});
  return out;
}

}  // namespace brook
