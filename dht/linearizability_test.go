package dht_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

type opKind uint8

const (
	opInsert opKind = iota
	opLookup
	opDelete
)

type kvInput struct {
	kind  opKind
	key   string
	value uint64
}

// kvOutput: ok is "inserted" for Insert, "found" for Lookup and Delete.
type kvOutput struct {
	ok    bool
	value uint64
}

type kvState struct {
	present bool
	value   uint64
}

// kvModel is the sequential specification of one key of the table.
var kvModel = porcupine.Model{
	Partition: func(h []porcupine.Operation) [][]porcupine.Operation {
		byKey := map[string][]porcupine.Operation{}
		for _, op := range h {
			k := op.Input.(kvInput).key
			byKey[k] = append(byKey[k], op)
		}
		var parts [][]porcupine.Operation
		for _, p := range byKey {
			parts = append(parts, p)
		}
		return parts
	},
	Init: func() any { return kvState{} },
	Step: func(s, in, out any) (bool, any) {
		st, i, o := s.(kvState), in.(kvInput), out.(kvOutput)
		switch i.kind {
		case opInsert:
			if st.present {
				return !o.ok, st
			}
			return o.ok, kvState{true, i.value}
		case opLookup:
			return o.ok == st.present && (!o.ok || o.value == st.value), st
		default:
			return o.ok == st.present, kvState{}
		}
	},
	DescribeOperation: func(in, out any) string {
		i, o := in.(kvInput), out.(kvOutput)
		return fmt.Sprintf("%v(%s, %d) -> %v %d", i.kind, i.key, i.value, o.ok, o.value)
	},
}

func (k opKind) String() string { return [...]string{"insert", "lookup", "delete"}[k] }

// TestLinearizability records short concurrent histories of all three
// operations on a few hot keys, from goroutines of several ranks, and checks
// that each is linearizable against a sequential map. The ranks share one
// clock, so this test runs on local ranks only.
func TestLinearizability(t *testing.T) {
	const ranks, goroutines, opsEach = 4, 3, 30
	keys := []string{"a", "b", "c"}
	histories := ranktest.Iterations(6, 100)
	for h := range histories {
		var clock atomic.Int64
		var mu sync.Mutex
		var history []porcupine.Operation
		err := local.Run(ranks, func(c rma.Comm) error {
			return withTable(c, dht.Config{Buckets: 1, Entries: 64}, func(tb *dht.Table) error {
				var wg sync.WaitGroup
				errs := make([]error, goroutines)
				for g := range goroutines {
					wg.Go(func() {
						rng := rand.New(rand.NewPCG(uint64(h), uint64(c.Rank()*goroutines+g)))
						client := c.Rank()*goroutines + g
						for i := range opsEach {
							in := kvInput{opKind(rng.IntN(3)), keys[rng.IntN(len(keys))], uint64(client<<16 | i)}
							call := clock.Add(1)
							out, err := apply(tb, in)
							ret := clock.Add(1)
							if err != nil {
								errs[g] = err
								return
							}
							mu.Lock()
							history = append(history, porcupine.Operation{ClientId: client, Input: in, Call: call, Output: out, Return: ret})
							mu.Unlock()
						}
					})
				}
				wg.Wait()
				if err := errors.Join(errs...); err != nil {
					return err
				}
				return c.Barrier()
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		res, _ := porcupine.CheckOperationsVerbose(kvModel, history, 20*time.Second)
		if res != porcupine.Ok {
			t.Fatalf("history %d of %d operations is %v: not linearizable", h, len(history), res)
		}
	}
}

func apply(tb *dht.Table, in kvInput) (kvOutput, error) {
	switch in.kind {
	case opInsert:
		err := tb.Insert(1, []byte(in.key), in.value)
		if errors.Is(err, dht.ErrExists) {
			return kvOutput{}, nil
		}
		return kvOutput{ok: err == nil}, err
	case opLookup:
		v, found, err := tb.Lookup(1, []byte(in.key))
		return kvOutput{found, v}, err
	default:
		found, err := tb.Delete(1, []byte(in.key))
		return kvOutput{ok: found}, err
	}
}
