#!/usr/bin/env python3
"""audit_library.py BROOK: which names of LANGUAGE.md §9's host library brook lacks,
and which no host conformance program uses.

The names are C99's for each header §9 lists (<math.h> in double and `f`
forms, as §9 promises the whole header; no long double), plus the extras §9
names. A name is "missing" when `brook check` of a program that mentions it
(in `sizeof`, unevaluated) says it is unknown; any other complaint (a
function has no size) shows the name is known. A name is "untested" when no tests/conformance/host/*.br
mentions it as a word.
"""
import os, re, subprocess, sys, tempfile

MATH = """acos asin atan atan2 cos sin tan acosh asinh atanh cosh sinh tanh exp exp2 expm1
frexp ilogb ldexp log log10 log1p log2 logb modf scalbn scalbln cbrt fabs hypot pow sqrt
erf erfc lgamma tgamma ceil floor nearbyint rint lrint llrint round lround llround trunc
fmod remainder remquo copysign nan nextafter fdim fmax fmin fma""".split()
MATH_MACROS = """fpclassify isfinite isinf isnan isnormal signbit isgreater isgreaterequal isless
islessequal islessgreater isunordered HUGE_VAL HUGE_VALF INFINITY NAN FP_NAN FP_INFINITE
FP_ZERO FP_SUBNORMAL FP_NORMAL""".split()
HEADERS = {
    "stdio.h": """printf fprintf sprintf snprintf puts putchar getchar fputs fgets fgetc fputc
        scanf fscanf sscanf fopen fclose fread fwrite fflush feof ferror fseek ftell rewind
        remove FILE stdin stdout stderr EOF SEEK_SET SEEK_CUR SEEK_END""",
    "stdlib.h": """malloc calloc realloc free atoi atol atof strtol strtoul strtod strtof abs labs
        qsort bsearch rand srand RAND_MAX exit abort getenv EXIT_SUCCESS EXIT_FAILURE""",
    "string.h": """memchr memcmp memcpy memmove memset strcat strchr strcmp strcoll strcpy strcspn
        strerror strlen strncat strncmp strncpy strpbrk strrchr strspn strstr strtok strxfrm""",
    "math.h": " ".join(MATH + [f + "f" for f in MATH] + MATH_MACROS),
    "time.h": "clock time difftime CLOCKS_PER_SEC clock_t time_t gettimeofday usleep",
    "float.h": """FLT_MAX FLT_MIN FLT_EPSILON FLT_DIG FLT_MANT_DIG FLT_MAX_EXP FLT_MIN_EXP
        DBL_MAX DBL_MIN DBL_EPSILON DBL_DIG DBL_MANT_DIG DBL_MAX_EXP DBL_MIN_EXP FLT_RADIX""",
    "limits.h": """CHAR_BIT SCHAR_MIN SCHAR_MAX UCHAR_MAX CHAR_MIN CHAR_MAX SHRT_MIN SHRT_MAX
        USHRT_MAX INT_MIN INT_MAX UINT_MAX LONG_MIN LONG_MAX ULONG_MAX""",
    "assert.h": "assert",
    "ctype.h": """isalnum isalpha isblank iscntrl isdigit isgraph islower isprint ispunct isspace
        isupper isxdigit tolower toupper""",
    "stdint.h": """int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t intptr_t
        uintptr_t INT8_MIN INT8_MAX INT16_MIN INT16_MAX INT32_MIN INT32_MAX INT64_MIN INT64_MAX
        UINT8_MAX UINT16_MAX UINT32_MAX UINT64_MAX SIZE_MAX size_t""",
}
TYPES = {"FILE", "clock_t", "time_t", "size_t"} | {n for n in HEADERS["stdint.h"].split() if n.endswith("_t")}
FUNCTION_LIKE_MACROS = {"assert"}

def probe(brook, name):
    if name in TYPES:
        body = f"{name}* probe_p = 0; (void)probe_p;"
    elif name in FUNCTION_LIKE_MACROS:
        body = f"{name}(1);"
    else:
        body = f"(void)sizeof({name});"
    # A macro (function-like ones too, which `sizeof(NAME)` would not expand) is known.
    src = (f"#include <stdio.h>\n#ifdef {name}\nint main(void) {{ return 0; }}\n#else\n"
           f"int main(void) {{ {body} return 0; }}\n#endif\n")
    with tempfile.NamedTemporaryFile("w", suffix=".br", delete=False) as f:
        f.write(src)
    try:
        r = subprocess.run([brook, "check", f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    first = r.stderr.strip().splitlines()[:1]
    unknown = r.returncode != 0 and (not first or re.search(r"unknown|undeclared|implicit", first[0]))
    return not unknown, first

def main():
    brook = sys.argv[1] if len(sys.argv) > 1 else "build/cli/brook"
    here = os.path.dirname(os.path.abspath(__file__))
    corpus = ""
    for d in (os.path.dirname(here),):
        for n in sorted(os.listdir(d)):
            if n.endswith(".br"):
                corpus += open(os.path.join(d, n), encoding="utf-8", errors="replace").read()
    missing, untested = [], []
    for header, names in HEADERS.items():
        for name in names.split():
            ok, why = probe(brook, name)
            if not ok:
                missing.append((header, name, why))
            elif not re.search(r"\b" + re.escape(name) + r"\b", corpus):
                untested.append((header, name))
    for header, name, why in missing:
        print(f"missing  <{header}> {name}: {why[0] if why else ''}")
    for header, name in untested:
        print(f"untested <{header}> {name}")
    total = sum(len(v.split()) for v in HEADERS.values())
    print(f"{total} names: {len(missing)} missing, {len(untested)} untested")

if __name__ == "__main__":
    main()
