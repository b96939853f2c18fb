package value

// Three-valued logic. Each operand must be a Boolean or null, otherwise
// the operator raises TypeError (InvalidArgumentType). Null stands for
// "unknown":
//
//	AND: false if either side is false, else null if either is null, else true
//	OR:  true if either side is true, else null if either is null, else false
//	XOR: null if either side is null, else a != b
//	NOT: null for null

func checkLogic(op string, a, b Value) error {
	for _, v := range [2]Value{a, b} {
		if v.kind != KindBoolean && v.kind != KindNull {
			return operandError(op, a, b)
		}
	}
	return nil
}

// And returns a AND b.
func And(a, b Value) (Value, error) {
	if err := checkLogic("AND", a, b); err != nil {
		return Null, err
	}
	switch {
	case a.kind == KindBoolean && !a.Bool(), b.kind == KindBoolean && !b.Bool():
		return Bool(false), nil
	case a.IsNull() || b.IsNull():
		return Null, nil
	}
	return Bool(true), nil
}

// Or returns a OR b.
func Or(a, b Value) (Value, error) {
	if err := checkLogic("OR", a, b); err != nil {
		return Null, err
	}
	switch {
	case a.IsTrue() || b.IsTrue():
		return Bool(true), nil
	case a.IsNull() || b.IsNull():
		return Null, nil
	}
	return Bool(false), nil
}

// Xor returns a XOR b.
func Xor(a, b Value) (Value, error) {
	if err := checkLogic("XOR", a, b); err != nil {
		return Null, err
	}
	if a.IsNull() || b.IsNull() {
		return Null, nil
	}
	return Bool(a.Bool() != b.Bool()), nil
}

// Not returns NOT a.
func Not(a Value) (Value, error) {
	switch a.kind {
	case KindNull:
		return Null, nil
	case KindBoolean:
		return Bool(!a.Bool()), nil
	}
	return Null, operandError("NOT", a)
}

// not3 negates a three-valued result (Boolean or null) without a type check.
func not3(v Value) Value {
	if v.IsNull() {
		return Null
	}
	return Bool(!v.Bool())
}
