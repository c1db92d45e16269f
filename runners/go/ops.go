// The release experiment's ops client for bee-go: uploads and downloads with the transfer
// settings.

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/ops"
	bee "github.com/ethswarm-tools/bee-go"
	"github.com/ethswarm-tools/bee-go/pkg/api"
	"github.com/ethswarm-tools/bee-go/pkg/swarm"
)

// opsClient performs the ops of the `ops` subcommand through bee-go: POST /bytes (UploadData) or
// /bzz (UploadFile, one file), GET /bytes (DownloadData) or /bzz (DownloadFile), with the line's
// settings as bee-go's options (transfer.go). Failures read as in the net cases (describe).
type opsClient struct {
	client *bee.Client
	batch  swarm.BatchID
}

// newOpsClient: no bound per call (NewClient's default client would cut every request at 60 s);
// each op's own context bounds it.
func newOpsClient(n *harness.Node) (ops.Client, error) {
	batch, err := swarm.BatchIDFromHex(n.BatchID)
	if err != nil {
		return nil, fmt.Errorf("--batch-id: %w", err)
	}
	client, err := bee.NewClient(n.URL, bee.WithHTTPClient(&http.Client{Transport: http.DefaultTransport}))
	if err != nil {
		return nil, err
	}
	return &opsClient{client: client, batch: batch}, nil
}

func (c *opsClient) Upload(ctx context.Context, req ops.UploadRequest, payload []byte) (ops.Uploaded, error) {
	var res api.UploadResult
	var err error
	if req.Endpoint == ops.EndpointBzz {
		res, err = c.client.File.UploadFile(ctx, c.batch, bytes.NewReader(payload), ops.BzzFileName, ops.BzzContentType, fileUploadOptions(req.Options))
	} else {
		res, err = c.client.File.UploadData(ctx, c.batch, bytes.NewReader(payload), bytesUploadOptions(req.Options))
	}
	if err != nil {
		return ops.Uploaded{}, describe(err)
	}
	return ops.Uploaded{Reference: res.Reference.Hex(), Tag: uint64(res.TagUID)}, nil
}

func (c *opsClient) Download(ctx context.Context, req ops.DownloadRequest) (io.ReadCloser, error) {
	ref, err := swarm.ReferenceFromHex(req.Reference)
	if err != nil {
		return nil, err
	}
	opts := downloadOptions(req.Options)
	var body io.ReadCloser
	if req.Endpoint == ops.EndpointBzz {
		body, _, err = c.client.File.DownloadFile(ctx, ref, opts)
	} else {
		body, err = c.client.File.DownloadData(ctx, ref, opts)
	}
	return body, describe(err)
}
