package jsonpos

import (
	"errors"
	"fmt"
)

// TooLargeError is ParseLimited's error for data over its size limit.
type TooLargeError struct{ Size, Limit int }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%d bytes, more than the limit of %d", e.Size, e.Limit)
}

// ParseLimited parses data, a whole file, as Parse does, after checking it is at most maxSize
// bytes: the start every config decoder shares. On failure it returns the byte offset the
// problem is at (0 for the size, the syntax error's offset otherwise) and a *TooLargeError or
// Parse's error.
func ParseLimited(data []byte, maxSize, maxDepth int) (*Value, int, error) {
	if len(data) > maxSize {
		return nil, 0, &TooLargeError{Size: len(data), Limit: maxSize}
	}
	v, err := Parse(data, maxDepth)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return nil, se.Off, err
		}
		return nil, 0, err
	}
	return v, 0, nil
}
