//go:build !race

package sse_test

const raceEnabled = false
