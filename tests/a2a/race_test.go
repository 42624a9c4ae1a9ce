//go:build race

package a2a_test

// raceEnabled: the race detector makes sync.Pool drop what is put in it at
// random, so allocation counts mean nothing under it.
const raceEnabled = true
