package oltp

import "math"

// zipf draws ranks in [0, n) with P(k) proportional to 1/(k+1)^theta for any
// theta > 0, such as LinkBench's shapes below 1 (math/rand's Zipf needs
// theta > 1). It uses rejection-inversion (Hörmann and Derflinger, "Rejection-
// inversion to generate variates from monotone discrete distributions",
// 1996): exact, constant expected time, no table. Its constants depend on
// theta alone, so n may grow from one draw to the next, and a zipf may be
// shared by goroutines.
type zipf struct {
	theta float64
	hx1   float64 // H(1.5) - 1
	s     float64 // acceptance shortcut
}

func newZipf(theta float64) *zipf {
	z := &zipf{theta: theta}
	z.hx1 = z.bigH(1.5) - 1
	z.s = 2 - z.bigHInv(z.bigH(2.5)-z.h(2))
	return z
}

// h is the unnormalised density x^-theta.
func (z *zipf) h(x float64) float64 { return math.Exp(-z.theta * math.Log(x)) }

// bigH is an integral of h: (x^(1-theta) - 1) / (1-theta), stable near
// theta = 1.
func (z *zipf) bigH(x float64) float64 {
	lx := math.Log(x)
	return expm1x((1-z.theta)*lx) * lx
}

// bigHInv inverts bigH.
func (z *zipf) bigHInv(x float64) float64 {
	t := max(x*(1-z.theta), -1)
	return math.Exp(log1px(t) * x)
}

// expm1x is expm1(x)/x, and log1px is log1p(x)/x, both continuous at 0.
func expm1x(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Expm1(x) / x
	}
	return 1 + x/2*(1+x/3*(1+x/4))
}

func log1px(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Log1p(x) / x
	}
	return 1 - x*(1.0/2-x*(1.0/3-x/4))
}

// rank draws a rank in [0, n), calling u for uniform numbers in [0, 1)
// until one is accepted (fewer than two on average).
func (z *zipf) rank(n uint64, u func() float64) uint64 {
	fn := float64(n)
	hn := z.bigH(fn + 0.5)
	for {
		v := hn + u()*(z.hx1-hn)
		x := z.bigHInv(v)
		k := math.Round(x)
		k = min(max(k, 1), fn)
		if k-x <= z.s || v >= z.bigH(k+0.5)-z.h(k) {
			return uint64(k) - 1
		}
	}
}
