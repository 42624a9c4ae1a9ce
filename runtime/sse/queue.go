package sse

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
)

// DefaultMaxQueued is the bound of a Queue whose QueueConfig sets none.
const DefaultMaxQueued = 64 << 10

// QueueConfig is how a Queue writes its response and treats a client that
// stops reading.
type QueueConfig struct {
	// MaxQueued bounds the bytes that wait for the writer: past it, Append
	// waits, so a producer faster than its client cannot buffer without
	// limit (0: DefaultMaxQueued).
	MaxQueued int
	// WriteTimeout bounds each write and flush (0: no bound). A client that
	// reads nothing for that long gets the write failed, and its
	// connection with it, instead of holding the stream forever.
	WriteTimeout time.Duration
	// OnFail learns the first error of a write, once: the stream is cut,
	// and every later Append returns that error.
	OnFail func(error)
	// KeepAlive is the frame KeepAlive writes on an idle stream (for SSE,
	// KeepAliveComment); "" when the framing has none, as a length-prefixed
	// one has not.
	KeepAlive string
	// Header, when not nil, writes the response header: the Queue calls it
	// once, from the goroutine that writes, before its first write (or at
	// the first Flush after Open). A stream that writes nothing can still
	// be answered with a plain response. Nil: the caller has written the
	// header already.
	Header func()
}

// Queue is the frame queue of one streamed response, whatever its framing
// (Server-Sent Events, length-prefixed protobuf): producers append frames,
// and one goroutine writes everything queued in one write and flushes once,
// so a burst of frames costs one write and one flush instead of one per
// frame, while a frame that comes alone is never held back waiting for
// more. What may wait is bounded (QueueConfig.MaxQueued), each write has a
// deadline (QueueConfig.WriteTimeout), and an idle stream can be kept open
// through proxies (KeepAlive).
//
// The goroutine that writes is either the caller's, which waits on Queued
// and calls Flush and, at the end, Close (a stream then holds no goroutine
// of its own), or one that Run starts. Append, Event, KeepAlive, Open and
// Drain are safe for concurrent use; Flush, Run and Close belong to the
// goroutine that owns the response.
type Queue struct {
	mu       sync.Mutex
	room     *sync.Cond // signalled when the writer has caught up, failed or closed
	buf      *[]byte    // the frames waiting to be written; nil when none wait
	started  bool       // the header is written
	opening  bool       // the header is to be written even with no frame (Open)
	closed   bool
	draining bool // the queue is unbounded (Drain)
	err      error
	last     time.Time     // when the queue last caught up with a frame
	wake     chan struct{} // holds a token while something waits for Flush
	w        io.Writer
	rc       *http.ResponseController // nil when w is not a response
	cfg      QueueConfig

	// Set by Run: its goroutine's signals.
	stop, stopped chan struct{}
}

// NewQueue returns a Queue that writes to w, which may be an
// http.ResponseWriter: its writes are then flushed and have deadlines.
func NewQueue(w io.Writer, cfg QueueConfig) *Queue {
	if cfg.MaxQueued <= 0 {
		cfg.MaxQueued = DefaultMaxQueued
	}
	q := &Queue{w: w, cfg: cfg, wake: make(chan struct{}, 1), last: time.Now(), started: cfg.Header == nil}
	q.room = sync.NewCond(&q.mu)
	if rw, ok := w.(http.ResponseWriter); ok {
		q.rc = http.NewResponseController(rw)
	}
	return q
}

// buffers holds the queues' buffers between batches: a queue takes one
// when a frame comes and gives it back once the batch is written, so an
// idle stream holds none, and a burst reuses the buffers an earlier one
// grew.
var buffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooled is the largest buffer kept for reuse: one a huge frame grew is
// left to the collector.
const maxPooled = 1 << 20

func putBuffer(b *[]byte) {
	if cap(*b) <= maxPooled {
		*b = (*b)[:0]
		buffers.Put(b)
	}
}

// Append appends a frame, built by frame on the end of the queue, for the
// writer. While more than the bound is queued it first waits, until the
// writer catches up, fails or is closed, or ctx is done. A frame whose wait
// ctx ends is queued all the same, one past the bound, and the cause of
// ctx returned: a frame a sequence of frames has counted on must not be
// lost, while the caller's later calls stop before queuing anything. Once
// a write has failed Append returns its error, and io.ErrClosedPipe once
// the queue is closed, queuing nothing.
func (q *Queue) Append(ctx context.Context, frame func(b []byte) []byte) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.full() {
		// A cancel or a client gone must not leave the caller waiting on a
		// reader that has stopped: ctx wakes it too.
		stop := context.AfterFunc(ctx, func() {
			q.mu.Lock()
			q.room.Broadcast()
			q.mu.Unlock()
		})
		defer stop()
		for q.full() && ctx.Err() == nil {
			q.room.Wait()
		}
	}
	if q.err != nil {
		return q.err
	}
	if q.closed {
		return io.ErrClosedPipe
	}
	halted := q.full()
	if q.buf == nil {
		q.buf = buffers.Get().(*[]byte)
	}
	if *q.buf = frame(*q.buf); len(*q.buf) == 0 { // the frame was nothing
		putBuffer(q.buf)
		q.buf = nil
	} else {
		q.signal()
	}
	if halted {
		return context.Cause(ctx)
	}
	return nil
}

// Event appends one Server-Sent Event, as AppendEvent frames it, with
// Append's waits and errors. A name or id that holds a line break is
// ErrLineBreak, and nothing is queued.
func (q *Queue) Event(ctx context.Context, name, id string, data []byte) error {
	if hasLineBreak(name) || hasLineBreak(id) {
		return ErrLineBreak
	}
	return q.Append(ctx, func(b []byte) []byte { return AppendEvent(b, name, id, data) })
}

// signal tells the writer something is queued. The caller holds q.mu.
func (q *Queue) signal() {
	select {
	case q.wake <- struct{}{}:
	default: // a token is there already
	}
}

// full reports whether a frame must wait for the writer. The caller holds
// q.mu.
func (q *Queue) full() bool {
	return q.buf != nil && len(*q.buf) > q.cfg.MaxQueued && q.err == nil && !q.closed && !q.draining
}

// Drain makes the queue unbounded, for a stream's last frames when the
// goroutine that writes queues them itself: it must never wait for room
// only it can make. Producers waiting for room go on at once.
func (q *Queue) Drain() {
	q.mu.Lock()
	q.draining = true
	q.room.Broadcast()
	q.mu.Unlock()
}

// Open has the header written, and flushed, at the next Flush even when
// no frame is queued: a stream with no frames is still a stream. It
// matters only with QueueConfig.Header.
func (q *Queue) Open() {
	q.mu.Lock()
	q.opening = true
	q.signal()
	q.mu.Unlock()
}

// Queued signals when something waits for Flush: the goroutine that
// writes waits on it (unless Run drives the queue).
func (q *Queue) Queued() <-chan struct{} { return q.wake }

// Flush writes what is queued in one write, and flushes it. It returns the
// error of this write or an earlier one, after which nothing more is
// written.
func (q *Queue) Flush() error {
	q.mu.Lock()
	if q.err != nil || (q.buf == nil && !q.opening) {
		err := q.err
		q.mu.Unlock()
		return err
	}
	batch := q.buf
	q.buf, q.opening = nil, false
	start := !q.started
	q.started = true
	q.mu.Unlock()

	// Unlocked: producers queue the next batch meanwhile.
	if start {
		q.cfg.Header()
	}
	var err error
	if batch != nil {
		err = q.write(*batch)
		putBuffer(batch)
	} else {
		err = q.write(nil)
	}

	q.mu.Lock()
	first := err != nil && q.err == nil
	q.mu.Unlock()
	if first && q.cfg.OnFail != nil {
		// Told before the producers learn of it (Append returning the
		// error): a producer that learns its stream failed finds what
		// OnFail does done (its context cancelled, say). Only this
		// goroutine sets q.err, so the failure is still the first.
		q.cfg.OnFail(err)
	}
	q.mu.Lock()
	q.last = time.Now()
	if first {
		q.err = err
	}
	err = q.err
	q.room.Broadcast()
	q.mu.Unlock()
	return err
}

// write writes and flushes one batch within the write timeout. The
// deadline is cleared afterwards, so that an idle stream, and what the
// server writes once the handler returns, are not cut.
func (q *Queue) write(batch []byte) error {
	if q.rc == nil {
		if len(batch) == 0 {
			return nil
		}
		_, err := q.w.Write(batch)
		return err
	}
	// A writer that cannot take a deadline (a middleware that hides it) is
	// written without one.
	timed := q.cfg.WriteTimeout > 0 && q.rc.SetWriteDeadline(time.Now().Add(q.cfg.WriteTimeout)) == nil
	var err error
	if len(batch) > 0 {
		_, err = q.w.Write(batch)
	}
	if err == nil {
		// A writer that cannot flush still delivers, when the handler
		// returns: that is no reason to fail.
		if ferr := q.rc.Flush(); ferr != nil && !errors.Is(ferr, http.ErrNotSupported) {
			err = ferr
		}
	}
	if timed && err == nil {
		err = q.rc.SetWriteDeadline(time.Time{})
	}
	return err
}

// KeepAlive queues the QueueConfig.KeepAlive frame, without waiting for
// room, when the stream has started and nothing has been queued or
// written within idle.
func (q *Queue) KeepAlive(idle time.Duration) {
	if q.cfg.KeepAlive == "" {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.started && q.buf == nil && q.err == nil && !q.closed && time.Since(q.last) >= idle {
		q.buf = buffers.Get().(*[]byte)
		*q.buf = append(*q.buf, q.cfg.KeepAlive...)
		q.signal()
	}
}

// Run starts a goroutine that writes what is queued, and, every keepAlive
// (0: never), keeps an idle stream alive, until Close. It is for a stream
// whose producer runs on the goroutine that owns the response.
func (q *Queue) Run(keepAlive time.Duration) {
	q.stop, q.stopped = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(q.stopped)
		var tick <-chan time.Time
		if keepAlive > 0 && q.cfg.KeepAlive != "" {
			t := time.NewTicker(keepAlive)
			defer t.Stop()
			tick = t.C
		}
		for {
			select {
			case <-q.wake:
				q.Flush()
			case <-tick:
				q.KeepAlive(keepAlive) // written at the next turn
			case <-q.stop:
				return // Close writes what is left
			}
		}
	}()
}

// Close stops the goroutine Run started, if any, writes what is queued and
// closes the queue: the response is not written after it returns, and a
// producer waiting for room returns io.ErrClosedPipe. It returns the error
// of a write, as Flush does; a second Close does nothing more.
func (q *Queue) Close() error {
	if q.stop != nil {
		close(q.stop)
		<-q.stopped
		q.stop = nil
	}
	q.mu.Lock()
	closed := q.closed
	q.mu.Unlock()
	if closed {
		return q.Err()
	}
	err := q.Flush()
	q.mu.Lock()
	q.closed = true
	if q.buf != nil { // left by a failed write
		putBuffer(q.buf)
		q.buf = nil
	}
	q.room.Broadcast()
	q.mu.Unlock()
	return err
}

// Err returns the error of the first failed write, or nil.
func (q *Queue) Err() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.err
}
