// Package mpi runs rma ranks as Open MPI processes. It is compiled only with
// the build tag mpi; without it, Run reports rma.ErrNotBuiltIn and BuiltIn is
// false, so a plain go build needs no MPI installation.
package mpi
