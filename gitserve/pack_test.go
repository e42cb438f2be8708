package gitserve

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"strings"
	"testing"
)

// packOf builds a pack whose header claims count objects and that holds
// the given encoded objects, with its checksum.
func packOf(count uint32, objects ...[]byte) []byte {
	var buf bytes.Buffer
	buf.WriteString("PACK")
	_ = binary.Write(&buf, binary.BigEndian, uint32(2))
	_ = binary.Write(&buf, binary.BigEndian, count)
	for _, o := range objects {
		buf.Write(o)
	}
	sum := sha1.Sum(buf.Bytes())
	buf.Write(sum[:])
	return buf.Bytes()
}

// refDelta encodes a delta object on base whose content is delta.
func refDelta(base [20]byte, delta []byte) []byte {
	var buf bytes.Buffer
	buf.Write(objectHeader(7, len(delta)))
	buf.Write(base[:])
	zw := zlib.NewWriter(&buf)
	zw.Write(delta)
	zw.Close()
	return buf.Bytes()
}

// objectHeader encodes a pack object's type and size.
func objectHeader(typ byte, size int) []byte {
	b := []byte{typ<<4 | byte(size&0x0f)}
	size >>= 4
	for size > 0 {
		b[len(b)-1] |= 0x80
		b = append(b, byte(size&0x7f))
		size >>= 7
	}
	return b
}

// varint encodes a delta header size.
func varint(n int) []byte {
	var b []byte
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func TestInspectRefusesPacksPastTheLimits(t *testing.T) {
	huge := append(varint(10), varint(1<<30)...)
	for name, tc := range map[string]struct {
		pack []byte
		says string
	}{
		"too many objects":    {packOf(MaxPackObjects + 1), "holds 10001 objects"},
		"a delta bomb":        {packOf(1, refDelta([20]byte{1}, huge)), "makes an object of 1024 MiB"},
		"an object too large": {packOf(1, objectHeader(3, MaxObjectBytes+1)), "An object of the pack is 2.0 MiB"},
	} {
		err := inspect(tc.pack)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := inspect(packOf(1, refDelta([20]byte{1}, append(varint(10), varint(20)...)))); err != nil {
		t.Errorf("a small delta: %v", err)
	}
}
