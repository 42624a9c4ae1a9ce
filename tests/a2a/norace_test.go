//go:build !race

package a2a_test

const raceEnabled = false
