module github.com/ethswarm-tools/bee-bench/runners/go/harness

go 1.22
