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

stdlib::FormatArg vararg_value(const Type* t, Scalar s) {
  FormatArg a;
  a.kind = vararg_kind(t);
  switch (a.kind) {
    case FormatArg::Kind::Int:
      a.i = static_cast<int32_t>(s.i);
      break;
    case FormatArg::Kind::Long:
      a.i = s.i;
      break;
    case FormatArg::Kind::UInt:
      a.u = static_cast<uint32_t>(s.u);
      break;
    case FormatArg::Kind::ULong:
    case FormatArg::Kind::Pointer:
      a.u = s.u;
      break;
    case FormatArg::Kind::Double:
      a.d = t->kind == TypeKind::Float ? double(s.f) : s.d;
      break;
  }
  return a;
}

namespace {

// A record's value is the FormatArg field its kind uses, as 8 bytes: an int
// sign-extended, an unsigned int zero-extended, so that va_arg's load of the
// first 4 bytes reads the int itself.
void encode(const FormatArg& a, uint8_t* rec) {
  rec[0] = static_cast<uint8_t>(static_cast<unsigned>(a.kind) + 1);
  if (a.kind == FormatArg::Kind::Double)
    store_as<double>(rec + kValueOffset, a.d);
  else if (a.kind == FormatArg::Kind::Int || a.kind == FormatArg::Kind::Long)
    store_as<int64_t>(rec + kValueOffset, a.i);
  else
    store_as<uint64_t>(rec + kValueOffset, a.u);
}

FormatArg decode(const uint8_t* rec) {
  FormatArg a;
  a.kind = static_cast<FormatArg::Kind>(rec[0] - 1);
  if (a.kind == FormatArg::Kind::Double)
    a.d = load_as<double>(rec + kValueOffset);
  else if (a.kind == FormatArg::Kind::Int || a.kind == FormatArg::Kind::Long)
    a.i = load_as<int64_t>(rec + kValueOffset);
  else
    a.u = load_as<uint64_t>(rec + kValueOffset);
  return a;
}

bool is_record(uint64_t ap, const uint8_t* rec) {
  return pointer_offset(ap) % kVarArgRecordSize == 0 &&
         rec[0] <= static_cast<unsigned>(FormatArg::Kind::Pointer) + 1;
}

}  // namespace

uint64_t store_varargs(Machine& m, std::span<const VarArg> extras, SourceLoc loc) {
  // Evaluated before the object exists, so an argument that is itself a
  // variadic call cannot see it.
  // Last first, as gcc evaluates arguments (CallNode::store_args).
  std::vector<uint8_t> bytes((extras.size() + 1) * kVarArgRecordSize, 0);
  for (size_t i = extras.size(); i-- > 0;)
    encode(vararg_value(extras[i].type, extras[i].e->eval(m)),
           bytes.data() + i * kVarArgRecordSize);
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
    if (!is_record(ap, rec))
      throw RuntimeError{loc, "a va_list that does not point to a call's variadic arguments"};
    if (rec[0] == 0) break;
    out.push_back(decode(rec));
  }
  return out;
}

uint64_t next_vararg(Machine& m, uint64_t ap_slot, const Type* want, SourceLoc loc) {
  uint64_t ap = load_as<uint64_t>(m.memory.at(ap_slot, 8, loc));
  if (ap == 0) throw RuntimeError{loc, "va_arg on a va_list that va_start did not start"};
  const uint8_t* rec = m.memory.at(ap, kVarArgRecordSize, loc);
  const uint64_t number = static_cast<uint64_t>(pointer_offset(ap)) / kVarArgRecordSize + 1;
  // A va_list is a pointer the program can set to anything: only records pass.
  if (!is_record(ap, rec))
    throw RuntimeError{loc,
                       "va_arg on a va_list that does not point to a call's variadic arguments"};
  if (rec[0] == 0) {
    uint64_t passed = load_as<uint64_t>(rec + kValueOffset);
    throw RuntimeError{loc, "va_arg reads variadic argument " + std::to_string(number) +
                                ", but the call passed " + std::to_string(passed)};
  }
  FormatArg::Kind got = decode(rec).kind;
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
