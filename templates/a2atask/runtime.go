package a2atask

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/runtime/outage"
)

// Runtime serves the A2A task RPCs on an Executor and a Store. It is an
// a2a.A2AServiceServer: bind it with a2a.BindA2AService and serve it over
// any binding.
type Runtime struct {
	a2a.UnimplementedA2AServiceServer

	exec     Executor
	store    Store
	logger   *slog.Logger
	extended *a2a.AgentCard
	owner    func(principal any) string

	pushConfigs PushConfigs
	pushSender  *PushSender
	pushes      *pusher // nil without push notifications
	lease       time.Duration
	patience    time.Duration

	health outage.Health // when the store was last unavailable
	runs   local         // the tasks this runtime's executors run

	ctx     context.Context // runs outlive the requests that start them
	stop    context.CancelFunc
	running sync.WaitGroup
	// closing is held for reading by every start, so that Close, which
	// sets closed under it, sees each run a start begins.
	closing sync.RWMutex
	closed  bool

	tel *a2a.Telemetry
	obs *taskObserver
	// traces holds the span context of each run in progress, by task ID,
	// for the push notifications of its events.
	traces sync.Map
}

// Option configures a Runtime.
type Option func(*Runtime)

// WithLogger logs executor failures and panics (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(rt *Runtime) { rt.logger = l } }

// WithExtendedCard answers GetExtendedAgentCard with card, to callers the
// bindings' authenticator has identified.
func WithExtendedCard(card *a2a.AgentCard) Option { return func(rt *Runtime) { rt.extended = card } }

// WithOwner names the owner of the tasks a principal creates; a task is
// visible to its owner only (another one gets TASK_NOT_FOUND). By default
// a principal that is a string, or has a String method, is its own owner,
// and anything else shares the anonymous owner "".
func WithOwner(owner func(principal any) string) Option {
	return func(rt *Runtime) { rt.owner = owner }
}

// WithPushNotifications keeps push notification configs in configs (the
// stores implement PushConfigs) and posts every event of a task to its
// webhooks with sender, each task's in order. When configs is a
// PushOutbox, as the SQL stores are, the notifications an event owes are
// stored with it and survive the process: any replica delivers them.
// Without it the push RPCs answer PUSH_NOTIFICATION_NOT_SUPPORTED.
func WithPushNotifications(configs PushConfigs, sender *PushSender) Option {
	return func(rt *Runtime) { rt.pushConfigs, rt.pushSender = configs, sender }
}

// WithLease sets how long a running task's lease lasts (default 30 s). A
// runtime renews the leases of the tasks it runs, and fails the submitted
// or working tasks whose lease has run out, as their executor's process
// has stopped (killed, crashed) and nothing else will finish them.
func WithLease(d time.Duration) Option {
	return func(rt *Runtime) {
		if d >= time.Millisecond {
			rt.lease = d
		}
	}
}

// WithStorePatience sets how long a request waits for a store that is
// unavailable (ErrUnavailable) before its caller is told so (default 30 s):
// a stream, a blocking SendMessage. The runs' own writes wait until the
// store is back, however long that takes.
func WithStorePatience(d time.Duration) Option {
	return func(rt *Runtime) {
		if d > 0 {
			rt.patience = d
		}
	}
}

// New returns a runtime that runs exec and keeps tasks in store.
func New(exec Executor, store Store, opts ...Option) *Runtime {
	rt := &Runtime{exec: exec, store: store, logger: slog.Default(), owner: defaultOwner, lease: 30 * time.Second, patience: 30 * time.Second}
	rt.ctx, rt.stop = context.WithCancel(context.Background())
	for _, o := range opts {
		o(rt)
	}
	rt.obs = newTaskObserver(rt.tel)
	if rt.pushConfigs != nil {
		rt.pushes = newPusher(rt, rt.pushConfigs, rt.pushSender)
	}
	rt.running.Add(1)
	go rt.sweep()
	return rt
}

// sweep fails orphaned tasks: submitted or working, with a lease that has
// run out and no change for as long. A lease that ran out while the store
// was unavailable proves nothing, since no process could renew it then:
// the sweep leaves tasks alone until a whole lease has passed since this
// runtime last found the store unavailable, time enough for live
// processes to renew theirs. It never fails a task this runtime runs.
func (rt *Runtime) sweep() {
	defer rt.running.Done()
	t := time.NewTicker(rt.lease / 2)
	defer t.Stop()
	for {
		select {
		case <-rt.ctx.Done():
			return
		case <-t.C:
		}
		now := time.Now()
		if rt.pushes != nil {
			rt.sweepPushes(now)
		}
		ids, err := rt.store.Orphans(rt.ctx, now, 100)
		if err != nil {
			rt.unavailable(err)
			continue
		}
		if ago, ok := rt.health.Since(now); ok && ago < rt.lease {
			continue
		}
		for _, id := range ids {
			if rt.runs.has(id) {
				continue
			}
			rec, err := rt.store.Get(rt.ctx, id)
			if err != nil {
				rt.unavailable(err)
				continue
			}
			if settled(rec.Task.Status.State) || now.Sub(updated(rec.Task)) < rt.lease {
				continue // changed, or too new to have been leased yet
			}
			// One write at the generation read: if the task changed since, it is
			// not orphaned, and the sweep leaves it.
			t := rec.Task
			now := rt.now()
			msg := &a2a.Message{MessageID: newID(), ContextID: t.ContextID, TaskID: t.ID, Role: a2a.RoleAgent,
				Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "the agent stopped while working on this task: its process ended"}}}}
			t.Status = &a2a.TaskStatus{State: a2a.TaskStateFailed, Message: msg, Timestamp: &now}
			t.History = append(t.History, msg)
			ev := &a2a.StreamResponse{Payload: &a2a.StreamResponseStatusUpdate{StatusUpdate: &a2a.TaskStatusUpdateEvent{
				TaskID: t.ID, ContextID: t.ContextID, Status: t.Status.Clone()}}}
			stamp(t, ev, rec.Generation+1)
			if gen, err := rt.store.Update(rt.ctx, t, rec.Generation, ev); err == nil {
				rt.written(t.ID, gen, ev)
				rt.logger.Warn("a2atask: failed an orphaned task", "task", id)
			}
		}
	}
}

// stamp writes the generation a change brings its task to into the task
// and the change's event, before both are stored.
func stamp(t *a2a.Task, ev *a2a.StreamResponse, gen int64) {
	stampTask(t, gen)
	stampEvent(ev, gen)
}

// written follows every write of the runtime, which brought a task to
// generation gen with ev: it delivers the event's push notifications and
// counts the state the task entered.
func (rt *Runtime) written(taskID string, gen int64, ev *a2a.StreamResponse) {
	if rt.pushes != nil {
		rt.pushes.Written(taskID, gen)
	}
	rt.obs.transition(ev)
}

// Close refuses new messages, cancels the runs in progress, and waits for
// them to return. A run it stops fails its task, saying the server shut
// down, unless the executor ends the task itself or returns nil.
func (rt *Runtime) Close() error {
	rt.closing.Lock()
	rt.closed = true
	rt.closing.Unlock()
	rt.stop()
	rt.running.Wait()
	return nil
}

func defaultOwner(p any) string {
	switch p := p.(type) {
	case string:
		return p
	case fmt.Stringer:
		return p.String()
	}
	return ""
}

func (rt *Runtime) caller(ctx context.Context) (principal any, owner string) {
	if info := a2a.CallInfoFrom(ctx); info != nil {
		principal = info.Principal
	}
	return principal, rt.owner(principal)
}

func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40 // a version 4 UUID
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// load returns a task its caller may see.
func (rt *Runtime) load(ctx context.Context, id string) (*Record, error) {
	_, owner := rt.caller(ctx)
	rec, err := rt.store.Get(ctx, id)
	if errors.Is(err, ErrNotFound) || (err == nil && rec.Owner != owner) {
		return nil, a2a.NewError(a2a.ErrTaskNotFound, fmt.Sprintf("task %q not found", id))
	}
	if err == nil {
		// Stored before its proto had the field, a task learns its
		// generation here.
		stampTask(rec.Task, rec.Generation)
	}
	return rec, err
}

// start stores the task a message creates or continues, and runs the
// executor on it in the background. It returns the task as it was before
// the run's first event, for a stream to start after, and the run.
func (rt *Runtime) start(ctx context.Context, req *a2a.SendMessageRequest) (*Record, *Run, error) {
	rt.closing.RLock()
	defer rt.closing.RUnlock()
	if rt.closed {
		return nil, nil, a2a.NewError(a2a.ErrInternal, "the agent is shutting down: send the message again later")
	}
	leased := false // the task was stored with its run's first lease
	var signal <-chan int64
	var stopWatch func()
	principal, owner := rt.caller(ctx)
	msg := req.Message.Clone()
	var rec *Record
	if msg.TaskID == "" {
		if msg.ContextID == "" {
			msg.ContextID = newID()
		}
		now := rt.now()
		task := &a2a.Task{ID: newID(), ContextID: msg.ContextID,
			Status: &a2a.TaskStatus{State: a2a.TaskStateSubmitted, Timestamp: &now}, History: []*a2a.Message{msg}}
		msg.TaskID = task.ID
		// The run watches its task from before the task exists, so that no
		// other writer's change can come before the watch.
		signal, stopWatch = rt.store.Watch(task.ID)
		if cfg := req.Configuration; cfg != nil && cfg.TaskPushNotificationConfig != nil {
			// Saved first, so that the task's first event is delivered too.
			push := cfg.TaskPushNotificationConfig.Clone()
			push.TaskID = task.ID
			if err := rt.savePushConfig(ctx, push); err != nil {
				stopWatch()
				return nil, nil, err
			}
		}
		first := &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: task}} // the store copies it
		stamp(task, first, 1)
		var err error
		if lc, ok := rt.store.(LeasedCreator); ok {
			// The run's first lease goes with the task: one write fewer.
			err = lc.CreateLeased(ctx, owner, task, first, time.Now().Add(rt.lease))
			leased = true
		} else {
			err = rt.store.Create(ctx, owner, task, first)
		}
		if err != nil {
			stopWatch()
			return nil, nil, err
		}
		rt.written(task.ID, 1, first)
		rec = &Record{Task: task, Owner: owner, Generation: 1}
	} else {
		if cfg := req.Configuration; cfg != nil && cfg.TaskPushNotificationConfig != nil {
			if _, err := rt.load(ctx, msg.TaskID); err != nil {
				return nil, nil, err
			}
			push := cfg.TaskPushNotificationConfig.Clone()
			push.TaskID = msg.TaskID
			if err := rt.savePushConfig(ctx, push); err != nil {
				return nil, nil, err
			}
		}
		var err error
		signal, stopWatch = rt.store.Watch(msg.TaskID) // from before the run's first write
		if rec, err = rt.resume(ctx, msg, req.Configuration); err != nil {
			stopWatch()
			return nil, nil, err
		}
	}
	run := &Run{Message: msg.Clone(), Principal: principal, rt: rt, task: rec.Task.Clone(), gen: rec.Generation, leased: leased, parent: traceParentOf(ctx),
		signal: signal, stopWatch: stopWatch, recheck: make(chan struct{}, 1), done: make(chan struct{})}
	run.writing.Store(rec.Generation)
	rt.running.Add(1)
	rt.runs.add(run.task.ID)
	go rt.execute(run)
	return rec, run, nil
}

// resume adds a message to a task that waits for one, and sets it working;
// a message that requires the task to be at a generation (the dev-1.1
// draft's if_generation_match, when the proto has it) finds it there, or
// is refused with TASK_GENERATION_MISMATCH.
func (rt *Runtime) resume(ctx context.Context, msg *a2a.Message, cfg *a2a.SendMessageConfiguration) (*Record, error) {
	want, conditional := generationMatch(cfg)
	for {
		rec, err := rt.load(ctx, msg.TaskID)
		if err != nil {
			return nil, err
		}
		t := rec.Task
		switch {
		case conditional && rec.Generation != want:
			return nil, a2a.NewError(a2a.ErrTaskGenerationMismatch, fmt.Sprintf("task %s is at generation %d, not %d", t.ID, rec.Generation, want))
		case msg.ContextID != "" && msg.ContextID != t.ContextID:
			return nil, a2a.NewError(a2a.ErrInvalidParams, fmt.Sprintf("message contextId %q is not task %s's context %q", msg.ContextID, t.ID, t.ContextID))
		case Terminal(t.Status.State):
			return nil, a2a.NewError(a2a.ErrUnsupportedOperation, fmt.Sprintf("task %s is %s and takes no more messages", t.ID, t.Status.State))
		case !Interrupted(t.Status.State):
			return nil, a2a.NewError(a2a.ErrUnsupportedOperation, fmt.Sprintf("task %s is %s, not waiting for a message", t.ID, t.Status.State))
		}
		msg.ContextID = t.ContextID
		now := rt.now()
		t.History = append(t.History, msg)
		t.Status = &a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: &now}
		ev := &a2a.StreamResponse{Payload: &a2a.StreamResponseStatusUpdate{
			StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Status: t.Status.Clone()}}}
		stamp(t, ev, rec.Generation+1)
		gen, err := rt.store.Update(ctx, t, rec.Generation, ev)
		if errors.Is(err, ErrConflict) {
			continue
		}
		if err != nil {
			return nil, err
		}
		rt.written(t.ID, gen, ev)
		rec.Generation = gen
		return rec, nil
	}
}

// errEndedElsewhere is the cause of a run's context when another writer
// ended its task.
var errEndedElsewhere = errors.New("a2atask: the task was ended by another writer")

// execute runs the executor on a task, cancelling its context when the
// task is canceled by any writer, and settles the task when it returns.
func (rt *Runtime) execute(run *Run) {
	defer rt.running.Done()
	defer close(run.done)
	id := run.task.ID
	defer rt.runs.remove(id)
	ctx, cancel := context.WithCancelCause(rt.ctx)
	defer cancel(nil)
	ctx, span := rt.obs.startAgent(ctx, run)
	if span != nil {
		run.span = span
		rt.traces.Store(id, span.SpanContext())
		defer rt.traces.Delete(id)
	}
	var err error
	defer func() { endAgent(span, err) }() // after the settling below, which the span shows
	defer run.stopWatch()
	seen := run.gen
	// lease renews the task's lease and says when to renew it next: a third
	// of a lease later, or soon when the store is unavailable, so that the
	// lease is renewed well within the lease that other runtimes' sweeps
	// wait after the store is back.
	lease := func() time.Duration {
		if err := rt.store.Lease(ctx, id, time.Now().Add(rt.lease)); err != nil {
			rt.unavailable(err)
			return min(lastPause, rt.lease/6)
		}
		return rt.lease / 3
	}
	next := rt.lease / 3 // a task created leased needs no lease yet
	if !run.leased {
		next = lease()
	}
	renew := time.NewTimer(next)
	defer renew.Stop()
	go func() {
		// Reading the state, or the new events, not the whole task, keeps
		// each wake-up cheap however large the task grows, and the run's
		// own writes wake no read at all. The watch began before the run's
		// first write, so that nothing needs reading before a signal.
		var retry <-chan time.Time
		for {
			select {
			case <-ctx.Done():
				return
			case <-renew.C:
				renew.Reset(lease())
				continue
			case gen := <-run.signal:
				if gen != 0 && gen <= run.writing.Load() {
					continue // the run's own write
				}
			case <-run.recheck:
			case <-retry:
			}
			// A terminal status the run did not write (a cancel, the orphan
			// sweep) ends the run's work. A store that tells the task's state
			// without reading it (Peeker) is asked for that alone, so that the
			// run's own writes, which wake this too, cost next to nothing.
			if peeker, ok := rt.store.(Peeker); ok {
				_, state, err := peeker.Peek(ctx, id)
				if err != nil {
					rt.unavailable(err)
					retry = time.After(time.Second) // look again: the signal is spent
					continue
				}
				if Terminal(state) {
					cancel(errEndedElsewhere)
					return
				}
				continue
			}
			events, err := rt.store.Events(ctx, id, seen)
			if err != nil {
				rt.unavailable(err)
				retry = time.After(time.Second) // look again: the signal is spent
				continue
			}
			for _, e := range events {
				seen = e.Generation
				if u, ok := e.Payload.Payload.(*a2a.StreamResponseStatusUpdate); ok && Terminal(u.StatusUpdate.Status.State) {
					cancel(errEndedElsewhere)
					return
				}
			}
		}
	}()
	err = rt.call(ctx, run)
	switch state := run.state(); {
	case errors.Is(err, ErrCanceled) || Terminal(state) || Interrupted(state):
	case errors.Is(context.Cause(ctx), errEndedElsewhere):
		// Another writer (a cancel, the orphan sweep) ended the task and
		// the executor stopped as asked: nothing is left to write.
		if err != nil && !errors.Is(err, context.Canceled) {
			rt.logger.Info("a2atask: the executor of an ended task returned an error", "task", id, "err", err)
		}
	case err != nil && rt.ctx.Err() != nil:
		// Close stopped the run: the task fails, saying why, as the orphan
		// sweep would fail it after a crash.
		rt.logger.Info("a2atask: the runtime closed while a task was working", "task", id, "err", err)
		rt.settle(run, run.Fail(run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: "the agent's server shut down while working on this task"}})))
	case err != nil:
		text := "the agent failed"
		var re *a2a.RPCError
		if errors.As(err, &re) {
			text = re.Error()
		}
		rt.logger.Error("a2atask: executor failed", "task", run.task.ID, "err", err)
		rt.settle(run, run.Fail(run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: text}})))
	default:
		rt.settle(run, run.Complete(nil))
	}
}

// call runs the executor, turning a panic into an error.
func (rt *Runtime) call(ctx context.Context, run *Run) (err error) {
	defer func() {
		if p := recover(); p != nil {
			rt.logger.Error("a2atask: executor panicked", "task", run.task.ID, "panic", p, "stack", string(debug.Stack()))
			err = errors.New("executor panicked")
		}
	}()
	return rt.exec.Execute(ctx, run)
}

func (rt *Runtime) settle(run *Run, err error) {
	if err != nil && !errors.Is(err, ErrCanceled) {
		rt.logger.Error("a2atask: settling the task", "task", run.task.ID, "err", err)
	}
}

// view is a task as a caller asked to see it: historyLength newest
// messages of its history (all when nil, none when 0).
func view(t *a2a.Task, historyLength *int32) *a2a.Task {
	if historyLength != nil && int(*historyLength) < len(t.History) {
		t.History = t.History[len(t.History)-max(int(*historyLength), 0):]
	}
	return t
}

// SendMessage starts or continues a task. It returns once the task has
// settled (ended, or stopped for input or authorization), or at once when
// the configuration says returnImmediately.
func (rt *Runtime) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (_ *a2a.SendMessageResponse, err error) {
	defer rt.explain(&err)
	rec, run, err := rt.start(ctx, req)
	if err != nil {
		return nil, err
	}
	cfg := req.Configuration
	if cfg == nil {
		cfg = &a2a.SendMessageConfiguration{}
	}
	if !cfg.ReturnImmediately {
		// The run is this runtime's: the task it settles is the answer,
		// with nothing to read. One ended by another writer (a cancel),
		// or not done within the store's patience (which may be the
		// store's doing: a follow tells the caller when it is), leaves the
		// answer to the store.
		patience := time.NewTimer(rt.patience)
		select {
		case <-run.done:
		case <-patience.C:
		case <-ctx.Done():
			patience.Stop()
			return nil, ctx.Err()
		}
		patience.Stop()
		if task, ok := run.settled(); ok {
			return &a2a.SendMessageResponse{Payload: &a2a.SendMessageResponseTask{Task: view(task, cfg.HistoryLength)}}, nil
		}
		err := rt.follow(ctx, rec.Task.ID, rec.Generation, false, func(Event) error { return nil })
		if err != nil {
			return nil, err
		}
		id := rec.Task.ID
		if err := rt.read(ctx, func(ctx context.Context) (err error) {
			rec, err = rt.store.Get(ctx, id)
			return err
		}); err != nil {
			return nil, err
		}
	}
	return &a2a.SendMessageResponse{Payload: &a2a.SendMessageResponseTask{Task: view(rec.Task, cfg.HistoryLength)}}, nil
}

// SendStreamingMessage starts or continues a task and streams it: the task,
// then its events until it settles.
func (rt *Runtime) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest, send func(*a2a.StreamResponse) error) (err error) {
	defer rt.explain(&err)
	rec, _, err := rt.start(ctx, req)
	if err != nil {
		return err
	}
	emit := emitter(ctx, send)
	if err := emit(Event{Generation: rec.Generation, Payload: &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: rec.Task}}}); err != nil {
		return err
	}
	return rt.follow(ctx, rec.Task.ID, rec.Generation, false, emit)
}

// emitter sends events on a stream, each named by its generation where the
// binding carries event ids, so that a client can resume after it.
func emitter(ctx context.Context, send func(*a2a.StreamResponse) error) func(Event) error {
	info := a2a.CallInfoFrom(ctx)
	return func(e Event) error {
		if info != nil && info.EventID != nil {
			info.EventID(strconv.FormatInt(e.Generation, 10))
		}
		return send(e.Payload)
	}
}

// follow passes every event of a task after generation after to emit, in
// order, until the task settles or ctx ends. When awaiting, the task is
// stopped for input or authorization at after and the follower waits for
// its answer: the interruption it already knows does not end the follow,
// the next one, after the task has worked again, does.
func (rt *Runtime) follow(ctx context.Context, id string, after int64, awaiting bool, emit func(Event) error) error {
	signal, stop := rt.store.Watch(id)
	defer stop()
	ends := func(s a2a.TaskState) bool { return Terminal(s) || (Interrupted(s) && !awaiting) }
	for {
		var events []Event
		if err := rt.read(ctx, func(ctx context.Context) (err error) {
			events, err = rt.store.Events(ctx, id, after)
			return err
		}); err != nil {
			return err
		}
		for _, e := range events {
			if err := emit(e); err != nil {
				return err
			}
			after = e.Generation
			if u, ok := e.Payload.Payload.(*a2a.StreamResponseStatusUpdate); ok {
				if s := u.StatusUpdate.Status.State; ends(s) {
					return nil
				} else if !Interrupted(s) {
					awaiting = false
				}
			}
		}
		if len(events) == 0 {
			// Nothing after the cursor: done if the task has settled there.
			var gen int64
			var state a2a.TaskState
			if err := rt.read(ctx, func(ctx context.Context) (err error) {
				gen, state, err = rt.peek(ctx, id)
				return err
			}); err != nil {
				return err
			}
			if gen <= after && ends(state) {
				return nil
			}
		}
		if err := awaitAfter(ctx, signal, after); err != nil {
			return err
		}
	}
}

// awaitAfter waits for a signal of a generation after the cursor, or of
// one the store cannot tell: the signals of the events read already (the
// ones that coalesced while they were read) need no read.
func awaitAfter(ctx context.Context, signal <-chan int64, after int64) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case gen := <-signal:
			if gen == 0 || gen > after {
				return nil
			}
		}
	}
}

// peek returns a task's generation and state: without reading the task
// when the store is a Peeker.
func (rt *Runtime) peek(ctx context.Context, id string) (int64, a2a.TaskState, error) {
	if p, ok := rt.store.(Peeker); ok {
		return p.Peek(ctx, id)
	}
	rec, err := rt.store.Get(ctx, id)
	if err != nil {
		return 0, 0, err
	}
	return rec.Generation, rec.Task.Status.State, nil
}

// GetTask returns a task its caller may see. A request that waits for the
// task to pass a generation (the dev-1.1 draft's current_generation, when
// the proto has it) is answered once it has, or once the task has ended,
// or after MaxGenerationWait at the latest, with the task as it is then.
func (rt *Runtime) GetTask(ctx context.Context, req *a2a.GetTaskRequest) (_ *a2a.Task, err error) {
	defer rt.explain(&err)
	if after, waits := awaitedGeneration(req); waits {
		return rt.awaitGeneration(ctx, req, after)
	}
	rec, err := rt.load(ctx, req.ID)
	if err != nil {
		return nil, err
	}
	return view(rec.Task, req.HistoryLength), nil
}

// awaitGeneration answers a GetTask that waits for its task to pass the
// generation after.
func (rt *Runtime) awaitGeneration(ctx context.Context, req *a2a.GetTaskRequest, after int64) (*a2a.Task, error) {
	// Watched before the first read, so that no change falls between.
	signal, stop := rt.store.Watch(req.ID)
	defer stop()
	timeout := time.NewTimer(MaxGenerationWait)
	defer timeout.Stop()
	for {
		rec, err := rt.load(ctx, req.ID)
		if err != nil {
			return nil, err
		}
		if rec.Generation > after || Terminal(rec.Task.Status.State) {
			return view(rec.Task, req.HistoryLength), nil
		}
		select {
		case <-signal: // a signal at or before the generation read is one read already
		case <-timeout.C:
			return view(rec.Task, req.HistoryLength), nil
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
}

// MaxGenerationWait bounds how long a GetTask that waits for a task's
// generation (current_generation) is held before it is answered with the
// task as it is.
const MaxGenerationWait = 30 * time.Second

// SubscribeToTask streams a task that has not ended: the task as it is,
// then its events until it settles. A client that reconnects with the id
// of the last event it received (Last-Event-ID) gets the events after it
// instead, ended task or not, none twice.
//
// A task stopped for input or authorization has not ended (A2A §3.1.6), so
// a subscription to it stays open: it goes on through the answer and the
// work that follows, and ends when the task does or stops for input
// again, as @a2a-js/sdk's server has it (a2a-go's ends it at once). A
// subscription made while the task works ends at its first stop, which is
// the client's turn to answer.
func (rt *Runtime) SubscribeToTask(ctx context.Context, req *a2a.SubscribeToTaskRequest, send func(*a2a.StreamResponse) error) (err error) {
	defer rt.explain(&err)
	rec, err := rt.load(ctx, req.ID)
	if err != nil {
		return err
	}
	emit := emitter(ctx, send)
	if info := a2a.CallInfoFrom(ctx); info != nil && info.LastEventID != "" {
		after, err := strconv.ParseInt(info.LastEventID, 10, 64)
		if err != nil || after < 1 || after > rec.Generation {
			return a2a.NewError(a2a.ErrInvalidParams, fmt.Sprintf("Last-Event-ID %q is no event of task %s", info.LastEventID, req.ID))
		}
		// Stopped at the last event the client has, the task is what the
		// client subscribed to wait on; a stop among the events it has yet to
		// get came after work it has not seen, and ends the stream.
		return rt.follow(ctx, req.ID, after, rec.Generation == after && Interrupted(rec.Task.Status.State), emit)
	}
	if Terminal(rec.Task.Status.State) {
		return a2a.NewError(a2a.ErrUnsupportedOperation, fmt.Sprintf("task %s is %s; there is nothing to subscribe to", req.ID, rec.Task.Status.State))
	}
	if err := emit(Event{Generation: rec.Generation, Payload: &a2a.StreamResponse{Payload: &a2a.StreamResponseTask{Task: rec.Task}}}); err != nil {
		return err
	}
	return rt.follow(ctx, req.ID, rec.Generation, Interrupted(rec.Task.Status.State), emit)
}

// CancelTask cancels a task that has not ended; its executor, wherever it
// runs, sees its context cancelled.
func (rt *Runtime) CancelTask(ctx context.Context, req *a2a.CancelTaskRequest) (_ *a2a.Task, err error) {
	defer rt.explain(&err)
	for {
		rec, err := rt.load(ctx, req.ID)
		if err != nil {
			return nil, err
		}
		t := rec.Task
		if Terminal(t.Status.State) {
			return nil, a2a.NewError(a2a.ErrTaskNotCancelable, fmt.Sprintf("task %s is %s", t.ID, t.Status.State))
		}
		now := rt.now()
		t.Status = &a2a.TaskStatus{State: a2a.TaskStateCanceled, Timestamp: &now}
		ev := &a2a.StreamResponse{Payload: &a2a.StreamResponseStatusUpdate{
			StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Status: t.Status.Clone()}}}
		stamp(t, ev, rec.Generation+1)
		gen, err := rt.store.Update(ctx, t, rec.Generation, ev)
		if errors.Is(err, ErrConflict) {
			continue
		}
		if err != nil {
			return nil, err
		}
		rt.written(t.ID, gen, ev)
		return t, nil
	}
}

// The most tasks one ListTasks page holds, and the number when the request
// does not say (A2A §3.1.4).
const (
	maxPageSize     = 100
	defaultPageSize = 50
)

// ListTasks pages through the caller's tasks, newest status first.
func (rt *Runtime) ListTasks(ctx context.Context, req *a2a.ListTasksRequest) (_ *a2a.ListTasksResponse, err error) {
	defer rt.explain(&err)
	_, owner := rt.caller(ctx)
	size := int32(defaultPageSize)
	if req.PageSize != nil {
		if *req.PageSize < 1 || *req.PageSize > maxPageSize {
			return nil, a2a.NewError(a2a.ErrInvalidParams, fmt.Sprintf("pageSize must be between 1 and %d", maxPageSize))
		}
		size = *req.PageSize
	}
	// One more than the page, to know whether another page follows.
	q := Query{Owner: owner, ContextID: req.ContextID, State: req.Status, Limit: int(size) + 1}
	if req.StatusTimestampAfter != nil {
		q.UpdatedAfter = *req.StatusTimestampAfter
	}
	if req.PageToken != "" {
		c, err := decodeCursor(req.PageToken)
		if err != nil {
			return nil, a2a.NewError(a2a.ErrInvalidParams, "pageToken is not one this server issued")
		}
		q.After = c
	}
	page, total, err := rt.store.List(ctx, q)
	if err != nil {
		return nil, err
	}
	more := len(page) > int(size)
	if more {
		page = page[:size]
	}
	resp := &a2a.ListTasksResponse{PageSize: size, TotalSize: int32(total)}
	for _, r := range page {
		stampTask(r.Task, r.Generation)
		t := view(r.Task, req.HistoryLength)
		if req.IncludeArtifacts == nil || !*req.IncludeArtifacts {
			t.Artifacts = nil
		}
		resp.Tasks = append(resp.Tasks, t)
	}
	if more {
		last := page[len(page)-1].Task
		resp.NextPageToken = encodeCursor(Cursor{Updated: updated(last), ID: last.ID})
	}
	return resp, nil
}

func encodeCursor(c Cursor) string {
	return base64.RawURLEncoding.EncodeToString([]byte(c.Updated.UTC().Format(time.RFC3339Nano) + "|" + c.ID))
}

func decodeCursor(token string) (*Cursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return nil, err
	}
	ts, id, ok := strings.Cut(string(b), "|")
	if !ok {
		return nil, errors.New("no separator")
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return nil, err
	}
	return &Cursor{Updated: t, ID: id}, nil
}

// GetExtendedAgentCard answers authenticated callers with the card of
// WithExtendedCard.
func (rt *Runtime) GetExtendedAgentCard(ctx context.Context, req *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error) {
	if rt.extended == nil {
		return nil, a2a.ErrExtendedAgentCardNotConfigured
	}
	if principal, _ := rt.caller(ctx); principal == nil {
		return nil, a2a.NewError(a2a.ErrUnauthenticated, "the extended agent card is for authenticated callers")
	}
	return rt.extended, nil
}
