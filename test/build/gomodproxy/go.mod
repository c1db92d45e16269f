module bee-bench/test/gomodproxy

go 1.22
