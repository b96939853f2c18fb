#include "textflag.h"

// func prefetchLines(p unsafe.Pointer, lines int)
TEXT ·prefetchLines(SB), NOSPLIT, $0-16
	MOVD p+0(FP), R0
	MOVD lines+8(FP), R1
	CMP $0, R1
	BLE done
loop:
	PRFM (R0), PLDL1KEEP
	ADD $64, R0
	SUBS $1, R1, R1
	BNE loop
done:
	RET
