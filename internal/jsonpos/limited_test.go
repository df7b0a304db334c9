package jsonpos

import (
	"errors"
	"testing"
)

func TestParseLimited(t *testing.T) {
	if _, off, err := ParseLimited([]byte(`{"a": 1}`), 4, 8); !isTooLarge(err) || off != 0 || err.Error() != "8 bytes, more than the limit of 4" {
		t.Errorf("over the size: %v at %d", err, off)
	}
	if _, off, err := ParseLimited([]byte(`{"a": }`), 100, 8); err == nil || isTooLarge(err) || off == 0 {
		t.Errorf("a syntax error: %v at %d", err, off)
	}
	if v, _, err := ParseLimited([]byte(`{"a": 1}`), 100, 8); err != nil || v.Get("a") == nil {
		t.Errorf("a good file: %v", err)
	}
}

func isTooLarge(err error) bool {
	var tl *TooLargeError
	return errors.As(err, &tl)
}
