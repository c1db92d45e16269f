package count

// clientRequest issues valgrind's client request whose arguments are at args (request_amd64.s).
//
//go:noescape
func clientRequest(args *[6]uintptr) uintptr
