//go:build !unix

package runlogtest

// cpuTime is 0 where the process's CPU time is not read: cpu-ns/run is
// then 0.
func cpuTime() int64 { return 0 }
