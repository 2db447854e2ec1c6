#include "interp/varargs.hpp"

#include <cstring>

#include "interp/machine.hpp"

namespace brook::interp {

using stdlib::FormatArg;

namespace {

// A record: the kind + 1 in its first byte (0 ends the list; its value is
// the number of records before it), the value in its last eight.
constexpr uint64_t kValueOffset = 8;

// The object's name in messages about its memory.
constexpr std::string_view kObjectName = "variadic arguments";

// int and unsigned int (and long and unsigned long) may stand for each other
// in va_arg (C99 7.15.1.1), as long as the value fits both.
bool same_class(FormatArg::Kind a, FormatArg::Kind b) {
  auto cls = [](FormatArg::Kind k) {
    switch (k) {
      case FormatArg::Kind::UInt:
        return FormatArg::Kind::Int;
      case FormatArg::Kind::ULong:
        return FormatArg::Kind::Long;
      default:
        return k;
    }
  };
  return cls(a) == cls(b);
}

std::string with_article(FormatArg::Kind k) {
  std::string_view name = stdlib::format_kind_name(k);
  bool vowel = !name.empty() && std::string_view("aeiou").find(name[0]) != std::string_view::npos;
  return std::string(vowel ? "an '" : "a '") + std::string(name) + "'";
}

}  // namespace

FormatArg::Kind vararg_kind(const Type* t) {
  if (t->is_pointer() || t->is_array()) return FormatArg::Kind::Pointer;
  switch (t->kind) {
    case TypeKind::Float:
    case TypeKind::Double:
      return FormatArg::Kind::Double;
    case TypeKind::UInt:
      return FormatArg::Kind::UInt;
    case TypeKind::Long:
      return FormatArg::Kind::Long;
    case TypeKind::ULong:
      return FormatArg::Kind::ULong;
    default:
      return FormatArg::Kind::Int;
  }
}

uint64_t store_varargs(Machine& m, std::span<const VarArg> extras, SourceLoc loc) {
  // Evaluated before the object exists, so an argument that is itself a
  // variadic call cannot see it.
  std::vector<uint8_t> bytes((extras.size() + 1) * kVarArgRecordSize, 0);
  for (size_t i = 0; i < extras.size(); ++i) {
    uint8_t* rec = bytes.data() + i * kVarArgRecordSize;
    FormatArg::Kind kind = vararg_kind(extras[i].type);
    Scalar s = extras[i].e->eval(m);
    rec[0] = static_cast<uint8_t>(static_cast<unsigned>(kind) + 1);
    switch (kind) {
      case FormatArg::Kind::Int:
        store_as<int32_t>(rec + kValueOffset, static_cast<int32_t>(s.i));
        break;
      case FormatArg::Kind::UInt:
        store_as<uint32_t>(rec + kValueOffset, static_cast<uint32_t>(s.u));
        break;
      case FormatArg::Kind::Double:
        store_as<double>(rec + kValueOffset,
                         extras[i].type->kind == TypeKind::Float ? double(s.f) : s.d);
        break;
      default:
        store_as<uint64_t>(rec + kValueOffset, s.u);
        break;
    }
  }
  store_as<uint64_t>(bytes.data() + extras.size() * kVarArgRecordSize + kValueOffset,
                     extras.size());
  uint32_t id = m.memory.allocate(bytes.size(), ObjectKind::local, loc, kObjectName);
  uint64_t p = make_pointer(id, 0);
  std::memcpy(m.memory.at(p, bytes.size(), loc, true), bytes.data(), bytes.size());
  return p;
}

std::vector<FormatArg> load_varargs(Machine& m, uint64_t ap, SourceLoc loc) {
  std::vector<FormatArg> out;
  for (;; ap = pointer_add(ap, kVarArgRecordSize)) {
    const uint8_t* rec = m.memory.at(ap, kVarArgRecordSize, loc);
    if (rec[0] == 0) break;
    if (pointer_offset(ap) % kVarArgRecordSize != 0 ||
        rec[0] > static_cast<unsigned>(FormatArg::Kind::Pointer) + 1)
      throw RuntimeError{loc, "a va_list that does not point to a call's variadic arguments"};
    FormatArg a;
    a.kind = static_cast<FormatArg::Kind>(rec[0] - 1);
    switch (a.kind) {
      case FormatArg::Kind::Int:
        a.i = load_as<int32_t>(rec + kValueOffset);
        break;
      case FormatArg::Kind::UInt:
        a.u = load_as<uint32_t>(rec + kValueOffset);
        break;
      case FormatArg::Kind::Long:
        a.i = load_as<int64_t>(rec + kValueOffset);
        break;
      case FormatArg::Kind::Double:
        a.d = load_as<double>(rec + kValueOffset);
        break;
      default:
        a.u = load_as<uint64_t>(rec + kValueOffset);
        break;
    }
    out.push_back(a);
  }
  return out;
}

uint64_t next_vararg(Machine& m, uint64_t ap_slot, const Type* want, SourceLoc loc) {
  uint64_t ap = load_as<uint64_t>(m.memory.at(ap_slot, 8, loc));
  if (ap == 0) throw RuntimeError{loc, "va_arg on a va_list that va_start did not start"};
  const uint8_t* rec = m.memory.at(ap, kVarArgRecordSize, loc);
  const uint64_t number = static_cast<uint64_t>(pointer_offset(ap)) / kVarArgRecordSize + 1;
  // A va_list is a pointer the program can set to anything: only records pass.
  if (pointer_offset(ap) % kVarArgRecordSize != 0 ||
      rec[0] > static_cast<unsigned>(FormatArg::Kind::Pointer) + 1)
    throw RuntimeError{loc,
                       "va_arg on a va_list that does not point to a call's variadic arguments"};
  if (rec[0] == 0) {
    uint64_t passed = load_as<uint64_t>(rec + kValueOffset);
    throw RuntimeError{loc, "va_arg reads variadic argument " + std::to_string(number) +
                                ", but the call passed " + std::to_string(passed)};
  }
  auto got = static_cast<FormatArg::Kind>(rec[0] - 1);
  FormatArg::Kind expect = vararg_kind(want);
  if (!same_class(got, expect)) {
    throw RuntimeError{loc, "va_arg(ap, " + want->name() + ") reads variadic argument " +
                                std::to_string(number) + ", which is " + with_article(got)};
  }
  store_as<uint64_t>(m.memory.at(ap_slot, 8, loc, true), pointer_add(ap, kVarArgRecordSize));
  return pointer_add(ap, kValueOffset);
}

VarArgsScope::~VarArgsScope() {
  if (pointer_ != 0) m_.memory.kill(pointer_id(pointer_));
}

}  // namespace brook::interp
