// TypeContext: interning, C layout of scalars/vectors/arrays, names, builtin names.
#include <doctest/doctest.h>

#include "lang/ast.hpp"
#include "lang/types.hpp"

using namespace brook;

TEST_CASE("types: scalar sizes follow x86-64") {
  TypeContext t;
  CHECK(t.scalar(TypeKind::Bool)->size == 1);
  CHECK(t.scalar(TypeKind::Char)->size == 1);
  CHECK(t.scalar(TypeKind::Short)->size == 2);
  CHECK(t.int_type()->size == 4);
  CHECK(t.float_type()->size == 4);
  CHECK(t.long_type()->size == 8);
  CHECK(t.double_type()->size == 8);
  CHECK(t.pointer(t.char_type())->size == 8);
  CHECK(t.pointer(t.char_type())->align == 8);
}

TEST_CASE("types: vectors are tightly packed and aligned to their component") {
  TypeContext t;
  const Type* f3 = t.vector(t.float_type(), 3);
  CHECK(f3->size == 12);
  CHECK(f3->align == 4);
  CHECK(t.vector(t.float_type(), 4)->size == 16);
  CHECK(t.vector(t.double_type(), 2)->size == 16);
  CHECK(t.vector(t.double_type(), 2)->align == 8);
  CHECK(t.vector(t.scalar(TypeKind::UChar), 4)->size == 4);
}

TEST_CASE("types: interning makes equal types identical") {
  TypeContext t;
  CHECK(t.vector(t.float_type(), 4) == t.vector(t.float_type(), 4));
  CHECK(t.vector(t.float_type(), 4) != t.vector(t.float_type(), 3));
  CHECK(t.array(t.int_type(), 10) == t.array(t.int_type(), 10));
  CHECK(t.array(t.int_type(), 10) != t.array(t.int_type(), 11));
  CHECK(t.pointer(t.int_type()) == t.pointer(t.int_type()));
  CHECK(t.stream(t.float_type(), 2) == t.stream(t.float_type(), 2));
  CHECK(t.stream(t.float_type(), 2) != t.stream(t.float_type(), 2, true));
  CHECK(t.stream(t.float_type(), 2) != t.stream(t.float_type(), 1));
}

TEST_CASE("types: arrays multiply sizes") {
  TypeContext t;
  const Type* a = t.array(t.array(t.float_type(), 4), 10);
  CHECK(a->size == 160);
  CHECK(a->align == 4);
  CHECK(a->name() == "float[10][4]");
  CHECK(t.array(t.int_type(), 0)->name() == "int[]");
}

TEST_CASE("types: names are what users write") {
  TypeContext t;
  CHECK(t.vector(t.float_type(), 4)->name() == "float4");
  CHECK(t.vector(t.scalar(TypeKind::UInt), 2)->name() == "uint2");
  CHECK(t.vector(t.scalar(TypeKind::UChar), 3)->name() == "uchar3");
  CHECK(t.scalar(TypeKind::UInt)->name() == "unsigned int");
  CHECK(t.pointer(t.pointer(t.char_type()))->name() == "char**");
  CHECK(t.stream(t.float_type(), 2)->name() == "float<,>");
  CHECK(t.stream(t.float_type(), 1)->name() == "float<>");
  CHECK(t.stream(t.vector(t.float_type(), 2), 2, true)->name() == "iter float2<,>");
  ast::StructDecl sd(SourceLoc{});
  sd.name = "Pixel";
  CHECK(t.struct_type(&sd)->name() == "struct Pixel");
}

TEST_CASE("types: builtin type names") {
  TypeContext t;
  CHECK(t.builtin_by_name("float4") == t.vector(t.float_type(), 4));
  CHECK(t.builtin_by_name("double2") == t.vector(t.double_type(), 2));
  CHECK(t.builtin_by_name("int3") == t.vector(t.int_type(), 3));
  CHECK(t.builtin_by_name("uint2") == t.vector(t.scalar(TypeKind::UInt), 2));
  CHECK(t.builtin_by_name("uchar4") == t.vector(t.scalar(TypeKind::UChar), 4));
  CHECK(t.builtin_by_name("char2") == t.vector(t.char_type(), 2));
  CHECK(t.builtin_by_name("uchar") == t.scalar(TypeKind::UChar));
  CHECK(t.builtin_by_name("uint") == t.scalar(TypeKind::UInt));
  CHECK(t.builtin_by_name("ushort") == t.scalar(TypeKind::UShort));
  CHECK(t.builtin_by_name("ulong") == t.scalar(TypeKind::ULong));
  CHECK(t.builtin_by_name("int") == nullptr);  // a C keyword: the parser's business
  CHECK(t.builtin_by_name("float5") == nullptr);
  CHECK(t.builtin_by_name("float1") == nullptr);
  CHECK(t.builtin_by_name("long2") == nullptr);
  CHECK(t.builtin_by_name("") == nullptr);
  CHECK(t.builtin_by_name("4") == nullptr);
}

TEST_CASE("types: struct layout is completed later") {
  TypeContext t;
  ast::StructDecl sd(SourceLoc{});
  const Type* s = t.struct_type(&sd);
  CHECK(s == t.struct_type(&sd));
  CHECK(s->size == 0);
  t.complete_struct(s, 24, 8);
  CHECK(s->size == 24);
  CHECK(s->align == 8);
}

TEST_CASE("types: predicates") {
  TypeContext t;
  CHECK(t.int_type()->is_signed());
  CHECK_FALSE(t.scalar(TypeKind::UInt)->is_signed());
  CHECK(t.float_type()->is_signed());
  CHECK(t.vector(t.int_type(), 2)->is_signed());
  CHECK(t.vector(t.float_type(), 2)->is_arithmetic());
  CHECK(t.vector(t.float_type(), 2)->width() == 2);
  CHECK(t.float_type()->width() == 1);
  CHECK(t.vector(t.float_type(), 2)->scalar_of() == t.float_type());
}

TEST_CASE("types: function types are interned and named as C declares them") {
  TypeContext t;
  const Type* i = t.int_type();
  const Type* binop = t.function(i, {i, i}, false, false);
  CHECK(binop == t.function(i, {i, i}, false, false));
  CHECK(binop != t.function(i, {i, i}, false, true));
  CHECK(binop != t.function(i, {i}, false, false));
  CHECK(binop->is_function());
  CHECK(binop->name() == "int (int, int)");
  CHECK(t.pointer(binop)->name() == "int (*)(int, int)");
  CHECK(t.pointer(binop)->size == 8);
  CHECK(t.array(t.pointer(binop), 4)->name() == "int (*[4])(int, int)");
  CHECK(t.pointer(t.function(t.void_type(), {}, false, false))->name() == "void (*)(void)");
  CHECK(t.pointer(t.function(i, {}, false, true))->name() == "int (*)()");
  CHECK(t.function(i, {t.pointer(t.char_type())}, true, false)->name() == "int (char*, ...)");
  CHECK(t.pointer(t.array(t.float_type(), 4))->name() == "float (*)[4]");
  CHECK(t.array(t.pointer(t.float_type()), 3)->name() == "float*[3]");
  // Compatible: equal, or one without a prototype and the same result.
  CHECK(functions_compatible(binop, t.function(i, {}, false, true)));
  CHECK_FALSE(functions_compatible(binop, t.function(i, {i}, false, false)));
  CHECK_FALSE(functions_compatible(binop, t.function(t.float_type(), {}, false, true)));
}
