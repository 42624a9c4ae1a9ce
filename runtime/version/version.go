// Package version is the compile-time handshake between the code agui-gen
// generates and the runtime that code imports.
//
// Every generated package asserts the runtime API level it was written
// for, as
//
//	const _ = version.AtLeast1
//
// A runtime older than the generated code lacks the constant, so the build
// fails at that line with "undefined: version.AtLeast1" instead of at some
// missing function deep in the code. The fix is to upgrade the runtime
// (go get github.com/agui-gen/agui-gen@latest, or the version whose
// agui-gen generated the code) or to regenerate with the agui-gen of the
// runtime in the build. A newer runtime keeps every older level's constant.
package version

// AtLeast1 is true in every runtime that serves code generated for
// runtime API level 1: the first level, in which generated packages import
// github.com/agui-gen/agui-gen/runtime instead of holding a copy of it.
const AtLeast1 = true
