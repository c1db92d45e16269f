#include "textflag.h"

// func clientRequest(args *[6]uintptr) uintptr
// valgrind.h's amd64 "special instruction preamble" (rdi rotated by 3, 13, 61 and 51 bits: 128 in
// all, so unchanged) then xchg rbx, rbx: a client request with its arguments at AX and its
// result in DX (0 when not under valgrind).
TEXT ·clientRequest(SB), NOSPLIT, $0-16
	MOVQ args+0(FP), AX
	MOVQ $0, DX
	ROLQ $3, DI
	ROLQ $13, DI
	ROLQ $61, DI
	ROLQ $51, DI
	XCHGQ BX, BX
	MOVQ DX, ret+8(FP)
	RET
