// The transfer settings (erasure level, upload mode, retrieval strategy) as bee-go's options.

package main

import (
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/transfer"
	"github.com/ethswarm-tools/bee-go/pkg/api"
)

// The transfer settings (erasure level, upload mode, retrieval strategy and fallback) as bee-go's
// own options: every one of them has a field there (api.RedundancyLevel on the upload options,
// UploadOptions.Deferred, DownloadOptions.RedundancyStrategy and .Fallback), so no unit of the
// go runner is skipped for want of one. A nil setting leaves bee-go's field at its zero value,
// which sends no header. bee-go sends no Swarm-Redundancy-Level for level 0 either (it is Bee's
// default, so the reference is the same).

func redundancyLevel(o transfer.Options) api.RedundancyLevel {
	if o.Level == nil {
		return api.RedundancyLevelOff
	}
	return api.RedundancyLevel(*o.Level)
}

// bytesUploadOptions are the options of a POST /bytes (File.UploadData).
func bytesUploadOptions(o transfer.Options) *api.RedundantUploadOptions {
	return &api.RedundantUploadOptions{UploadOptions: api.UploadOptions{Deferred: o.Deferred}, RedundancyLevel: redundancyLevel(o)}
}

// fileUploadOptions are the options of a POST /bzz of one file (File.UploadFile).
func fileUploadOptions(o transfer.Options) *api.FileUploadOptions {
	return &api.FileUploadOptions{UploadOptions: api.UploadOptions{Deferred: o.Deferred}, RedundancyLevel: redundancyLevel(o)}
}

// downloadOptions are the options of a GET /bytes or /bzz (nil: bee-go's defaults, no header).
func downloadOptions(o transfer.Options) *api.DownloadOptions {
	if o.Strategy == nil && o.Fallback == nil {
		return nil
	}
	d := &api.DownloadOptions{Fallback: o.Fallback}
	if o.Strategy != nil {
		d.RedundancyStrategy = api.RedundancyStrategyPtr(api.RedundancyStrategy(*o.Strategy))
	}
	return d
}

// deferredUpload is the untimed upload of a download case: always deferred, at the case's level.
func deferredUpload(o transfer.Options) transfer.Options {
	yes := true
	return transfer.Options{Level: o.Level, Deferred: &yes}
}
