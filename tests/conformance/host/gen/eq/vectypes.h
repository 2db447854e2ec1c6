/* C stand-ins for Brook vector types: same size and alignment as LANGUAGE.md §3. */
typedef struct { float x, y; } float2;
typedef struct { float x, y, z; } float3;
typedef struct { float x, y, z, w; } float4;
typedef struct { double x, y; } double2;
typedef struct { double x, y, z; } double3;
typedef struct { double x, y, z, w; } double4;
typedef struct { int x, y; } int2;
typedef struct { int x, y, z; } int3;
typedef struct { int x, y, z, w; } int4;
typedef struct { unsigned int x, y; } uint2;
typedef struct { unsigned int x, y, z; } uint3;
typedef struct { unsigned int x, y, z, w; } uint4;
typedef struct { char x, y; } char2;
typedef struct { char x, y, z; } char3;
typedef struct { char x, y, z, w; } char4;
typedef struct { unsigned char x, y; } uchar2;
typedef struct { unsigned char x, y, z; } uchar3;
typedef struct { unsigned char x, y, z, w; } uchar4;
