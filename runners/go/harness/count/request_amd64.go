// valgrind's client request on amd64, as Go calls it (the instruction sequence is
// request_amd64.s).

package count

// clientRequest issues valgrind's client request whose arguments are at args (request_amd64.s).
//
//go:noescape
func clientRequest(args *[6]uintptr) uintptr
