// The CPU cases of the bee-go runner: pure client work (hashing, BMT, signing, manifests) on the
// shared fixtures, no node.

package main

import (
	"context"
	"fmt"
	"runtime"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/plan"
	"github.com/ethswarm-tools/bee-go/pkg/file"
	"github.com/ethswarm-tools/bee-go/pkg/manifest"
	"github.com/ethswarm-tools/bee-go/pkg/swarm"
)

// CPU cases: pure client work, no Bee node. Each builds its inputs from the shared fixtures,
// times exactly the client call(s) the spec names, and exposes its output for the digest.

func noop(context.Context, *harness.Env, plan.Params) (*harness.Bench, error) {
	return &harness.Bench{Op: func(context.Context) error { return nil }}, nil
}

// concat joins n fixed-size outputs in index order.
func concat[T any](xs []T, raw func(T) []byte) []byte {
	var out []byte
	for _, x := range xs {
		out = append(out, raw(x)...)
	}
	return out
}

func refBytes(r swarm.Reference) []byte { return r.Raw() }

func addrBytes(a swarm.EthAddress) []byte { return a.Raw() }

// chunkPayloads returns payloads 0..count-1 of `size` bytes, slices of the fixture.
func chunkPayloads(env *harness.Env, count, size int) [][]byte {
	data := env.Fixtures.Data(count * size)
	out := make([][]byte, count)
	for j := range out {
		out[j] = data[j*size : (j+1)*size]
	}
	return out
}

// addressRange content-addresses payloads[lo:hi] into addrs[lo:hi]: the work of both chunk-hash cases.
func addressRange(payloads [][]byte, addrs []swarm.Reference, lo, hi int) error {
	for j := lo; j < hi; j++ {
		c, err := swarm.MakeContentAddressedChunk(payloads[j])
		if err != nil {
			return err
		}
		addrs[j] = c.Address
	}
	return nil
}

// chunkHash: MakeContentAddressedChunk (span || payload through the BMT) for each payload.
func chunkHash(_ context.Context, env *harness.Env, p plan.Params) (*harness.Bench, error) {
	payloads := chunkPayloads(env, p.Int("count"), p.Int("chunk_bytes"))
	addrs := make([]swarm.Reference, len(payloads))
	return &harness.Bench{
		Op:     func(context.Context) error { return addressRange(payloads, addrs, 0, len(payloads)) },
		Output: func() ([]byte, error) { return concat(addrs, refBytes), nil },
	}, nil
}

// chunkHashParallel: the chunk-hash work split into contiguous slices, one goroutine per CPU.
func chunkHashParallel(_ context.Context, env *harness.Env, p plan.Params) (*harness.Bench, error) {
	payloads := chunkPayloads(env, p.Int("count"), p.Int("chunk_bytes"))
	addrs := make([]swarm.Reference, len(payloads))
	workers := runtime.NumCPU()
	return &harness.Bench{
		Op: func(context.Context) error {
			return harness.Parallel(workers, func(w int) error {
				return addressRange(payloads, addrs, len(payloads)*w/workers, len(payloads)*(w+1)/workers)
			})
		},
		Output: func() ([]byte, error) { return concat(addrs, refBytes), nil },
	}, nil
}

// keccakBulk: one Keccak-256 over the first `bytes` of the data fixture.
func keccakBulk(_ context.Context, env *harness.Env, p plan.Params) (*harness.Bench, error) {
	data := env.Fixtures.Data(p.Int("bytes"))
	var sum []byte
	return &harness.Bench{
		Op: func(context.Context) error {
			sum = swarm.Keccak256(data)
			return nil
		},
		Output: func() ([]byte, error) { return sum, nil },
	}, nil
}

// fileRoot: the offline file chunker (no upload callback) over the first `bytes`; its root
// chunk address is the /bytes reference.
func fileRoot(_ context.Context, env *harness.Env, p plan.Params) (*harness.Bench, error) {
	data := env.Fixtures.Data(p.Int("bytes"))
	var root swarm.Reference
	return &harness.Bench{
		Op: func(context.Context) error {
			c := swarm.NewFileChunker(nil)
			if _, err := c.Write(data); err != nil {
				return err
			}
			r, err := c.Finalize()
			if err != nil {
				return err
			}
			root = r.Address
			return nil
		},
		Output: func() ([]byte, error) { return root.Raw(), nil },
	}, nil
}

func encryptedFileRoot(context.Context, *harness.Env, plan.Params) (*harness.Bench, error) {
	return nil, harness.Skip("no offline encrypting chunker in bee-go (encryption lives in the upload path)")
}

// signingKeys returns private keys 0..3 of the fixtures.
func signingKeys(env *harness.Env) ([4]swarm.PrivateKey, error) {
	var keys [4]swarm.PrivateKey
	for k := range keys {
		seed := env.Fixtures.Key(uint64(k))
		key, err := swarm.NewPrivateKey(seed[:])
		if err != nil {
			return keys, fmt.Errorf("key %d: %w", k, err)
		}
		keys[k] = key
	}
	return keys, nil
}

// messages returns messages 0..count-1 to sign.
func messages(env *harness.Env, count int) [][]byte {
	out := make([][]byte, count)
	for j := range out {
		m := env.Fixtures.Message(uint64(j))
		out[j] = m[:]
	}
	return out
}

// recoverSigners recovers the address behind each (message, signature) pair with the client's
// recover.
func recoverSigners(msgs [][]byte, sigs []swarm.Signature, addrs []swarm.EthAddress) error {
	for j := range sigs {
		pub, err := sigs[j].RecoverPublicKey(msgs[j])
		if err != nil {
			return fmt.Errorf("recover %d: %w", j, err)
		}
		addrs[j] = pub.Address()
	}
	return nil
}

// sign: PrivateKey.Sign (Ethereum signed-message envelope) of message j with key j mod 4.
func sign(_ context.Context, env *harness.Env, p plan.Params) (*harness.Bench, error) {
	keys, err := signingKeys(env)
	if err != nil {
		return nil, err
	}
	msgs := messages(env, p.Int("count"))
	sigs := make([]swarm.Signature, len(msgs))
	return &harness.Bench{
		Op: func(context.Context) error {
			for j, m := range msgs {
				s, err := keys[j%len(keys)].Sign(m)
				if err != nil {
					return err
				}
				sigs[j] = s
			}
			return nil
		},
		// Signatures differ between clients (nonces), the recovered signers do not.
		Output: func() ([]byte, error) {
			addrs := make([]swarm.EthAddress, len(sigs))
			if err := recoverSigners(msgs, sigs, addrs); err != nil {
				return nil, err
			}
			return concat(addrs, addrBytes), nil
		},
	}, nil
}

// verify: Signature.RecoverPublicKey then the address, for pairs signed during setup.
func verify(_ context.Context, env *harness.Env, p plan.Params) (*harness.Bench, error) {
	keys, err := signingKeys(env)
	if err != nil {
		return nil, err
	}
	msgs := messages(env, p.Int("count"))
	sigs := make([]swarm.Signature, len(msgs))
	for j, m := range msgs {
		if sigs[j], err = keys[j%len(keys)].Sign(m); err != nil {
			return nil, err
		}
	}
	addrs := make([]swarm.EthAddress, len(msgs))
	return &harness.Bench{
		Op:     func(context.Context) error { return recoverSigners(msgs, sigs, addrs) },
		Output: func() ([]byte, error) { return concat(addrs, addrBytes), nil },
	}, nil
}

// identity: private key j from its 32 bytes -> public key -> Ethereum address.
func identity(_ context.Context, env *harness.Env, p plan.Params) (*harness.Bench, error) {
	seeds := make([][32]byte, p.Int("count"))
	for j := range seeds {
		seeds[j] = env.Fixtures.Key(uint64(j))
	}
	addrs := make([]swarm.EthAddress, len(seeds))
	return &harness.Bench{
		Op: func(context.Context) error {
			for j := range seeds {
				k, err := swarm.NewPrivateKey(seeds[j][:])
				if err != nil {
					return err
				}
				addrs[j] = k.PublicKey().Address()
			}
			return nil
		},
		Output: func() ([]byte, error) { return concat(addrs, addrBytes), nil },
	}, nil
}

// manifestHash: file.HashCollectionEntries (chunk each file, build the Mantaray, hash it) over
// `files` files of `file_bytes`, with the client's default metadata.
func manifestHash(_ context.Context, env *harness.Env, p plan.Params) (*harness.Bench, error) {
	files, size := p.Int("files"), p.Int("file_bytes")
	data := env.Fixtures.Data(files * size)
	entries := make([]file.CollectionEntry, files)
	for i := range entries {
		entries[i] = file.CollectionEntry{Path: fmt.Sprintf("f%04d.bin", i), Data: data[i*size : (i+1)*size]}
	}
	var root swarm.Reference
	return &harness.Bench{
		Op: func(context.Context) error {
			r, err := file.HashCollectionEntries(entries)
			root = r
			return err
		},
		Output: func() ([]byte, error) { return root.Raw(), nil },
	}, nil
}

// manifestLookup: MantarayNode.Find over a prebuilt trie of `entries` paths.
func manifestLookup(_ context.Context, env *harness.Env, p plan.Params) (*harness.Bench, error) {
	entries, lookups := p.Int("entries"), p.Int("lookups")
	targets := env.Fixtures.Data(32 * entries)
	root := manifest.New()
	for i := 0; i < entries; i++ {
		ref, err := swarm.NewReference(targets[32*i : 32*(i+1)])
		if err != nil {
			return nil, err
		}
		root.AddFork([]byte(fmt.Sprintf("d%02d/f%05d.bin", i%64, i)), ref, nil)
	}
	queries := make([][]byte, lookups)
	for j := range queries {
		if j%5 == 4 {
			queries[j] = []byte(fmt.Sprintf("d%02d/m%05d.bin", j%64, j%100000))
		} else {
			i := (j * 7919) % entries
			queries[j] = []byte(fmt.Sprintf("d%02d/f%05d.bin", i%64, i))
		}
	}
	found := make([]*manifest.MantarayNode, lookups)
	return &harness.Bench{
		Op: func(context.Context) error {
			for j, q := range queries {
				found[j] = root.Find(q)
			}
			return nil
		},
		// The target reference of each lookup, 32 zero bytes for a miss.
		Output: func() ([]byte, error) {
			out := make([]byte, 32*len(found))
			for j, n := range found {
				if n != nil {
					copy(out[32*j:32*(j+1)], n.TargetAddress)
				}
			}
			return out, nil
		},
	}, nil
}
