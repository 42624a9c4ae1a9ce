package pgstore

import (
	"context"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
)

// cluster is a PostgreSQL server of the test's own, in a temporary
// directory on a free port, so that the test can stop and restart it
// without disturbing the shared server other tests use.
type cluster struct {
	t          *testing.T
	bin, data  string
	port       int
	asPostgres bool // run the server as the postgres user (the test runs as root)
}

// privateCluster creates and starts a cluster. It skips the test when the
// PostgreSQL server programs are not installed (bash .ci/postgres installs
// them), and fails it when CI is set. The cluster is stopped when the test
// ends, whatever happened.
func privateCluster(t *testing.T) *cluster {
	t.Helper()
	cannot := func(msg string) {
		msg += " (bash .ci/postgres, as root, installs PostgreSQL and its user)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(found) == 0 {
		cannot("no PostgreSQL server programs in /usr/lib/postgresql")
	}
	slices.SortFunc(found, func(a, b string) int { return strings.Compare(versionOf(a), versionOf(b)) })
	c := &cluster{t: t, bin: filepath.Dir(found[len(found)-1]), asPostgres: os.Geteuid() == 0}
	var u *user.User
	if c.asPostgres {
		// initdb and postgres refuse to run as root.
		var err error
		if u, err = user.Lookup("postgres"); err != nil {
			cannot("running as root, and there is no postgres user to run a server as")
		}
	}
	dir, err := os.MkdirTemp("", "a2a-outage")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if c.asPostgres {
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	c.data = filepath.Join(dir, "data")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c.port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	c.run("initdb", "-D", c.data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8")
	conf := fmt.Sprintf("port = %d\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '%s'\nfsync = off\n", c.port, dir)
	if err := appendFile(filepath.Join(c.data, "postgresql.conf"), conf); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.pgctl("-m", "immediate", "stop") })
	c.start()
	return c
}

// versionOf is the server version a pg_ctl path is of, padded so that
// versions sort as numbers do.
func versionOf(path string) string {
	return fmt.Sprintf("%8s", filepath.Base(filepath.Dir(filepath.Dir(path))))
}

func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// run runs one of the server's programs, as the postgres user when the
// test runs as root.
func (c *cluster) run(program string, args ...string) {
	c.t.Helper()
	name, argv := filepath.Join(c.bin, program), args
	if c.asPostgres {
		name, argv = "runuser", append([]string{"-u", "postgres", "--", filepath.Join(c.bin, program)}, args...)
	}
	if out, err := exec.Command(name, argv...).CombinedOutput(); err != nil {
		c.t.Fatalf("%s %s: %v\n%s", program, strings.Join(args, " "), err, out)
	}
}

func (c *cluster) pgctl(args ...string) {
	name, argv := filepath.Join(c.bin, "pg_ctl"), append([]string{"-D", c.data, "-w"}, args...)
	if c.asPostgres {
		name, argv = "runuser", append([]string{"-u", "postgres", "--", name}, argv...)
	}
	exec.Command(name, argv...).Run()
}

func (c *cluster) start() {
	c.t.Helper()
	c.run("pg_ctl", "-D", c.data, "-w", "-l", filepath.Join(filepath.Dir(c.data), "server.log"), "start")
}

// stop shuts the server down as an operator's restart does: sessions are
// terminated (57P01), and new connections are refused until start.
func (c *cluster) stop() {
	c.t.Helper()
	c.run("pg_ctl", "-D", c.data, "-w", "-m", "fast", "stop")
}

func (c *cluster) dsn() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// TestRuntimeOutlastsARestart: PostgreSQL restarts while a task streams
// artifacts on one replica and another replica sweeps for orphans, with
// leases that run out during the outage. The run's writes wait for the
// database, so the task completes with every artifact once and in order;
// neither replica takes the live task for an orphan; the stream follows
// the task to its end; and a request made during the outage is told that
// the store is unavailable.
func TestRuntimeOutlastsARestart(t *testing.T) {
	c := privateCluster(t)
	const steps = 40
	lease := 3 * time.Second
	step := make(chan int, steps)
	exec := a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
		if err := run.Working(nil); err != nil {
			return err
		}
		for i := range steps {
			part := &a2a.Part{Content: &a2a.PartText{Text: strconv.Itoa(i) + " "}}
			if err := run.Artifact(&a2a.Artifact{ArtifactID: "count", Parts: []*a2a.Part{part}}, i > 0, i == steps-1); err != nil {
				return err
			}
			step <- i
			time.Sleep(50 * time.Millisecond)
		}
		return nil
	})
	a := a2atask.New(exec, open(t, c.dsn(), WithPollInterval(200*time.Millisecond)), a2atask.WithLease(lease))
	defer a.Close()
	b := a2atask.New(a2atask.ExecutorFunc(func(context.Context, *a2atask.Run) error { return nil }),
		open(t, c.dsn(), WithPollInterval(200*time.Millisecond)), a2atask.WithLease(lease))
	defer b.Close()

	card := &a2a.AgentCard{Name: "counter", Description: "Counts.", Version: "1", SupportedInterfaces: a2a.Interfaces("http://x"),
		Capabilities: &a2a.AgentCapabilities{Streaming: new(true)}, DefaultInputModes: []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"}, Skills: []*a2a.AgentSkill{{ID: "c", Name: "C", Description: "Counts.", Tags: []string{"c"}}}}
	h, err := a2a.NewHandler(a2a.BindA2AService(a), card)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(srv.URL))

	var mu sync.Mutex
	var seen []string
	streamed := make(chan error, 1)
	ctx := context.Background()
	go func() {
		for ev, err := range client.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleUser,
			Parts: []*a2a.Part{{Content: &a2a.PartText{Text: "count"}}}}}) {
			if err != nil {
				streamed <- err
				return
			}
			mu.Lock()
			switch p := ev.Payload.(type) {
			case *a2a.StreamResponseTask:
				seen = append(seen, "task:"+p.Task.ID)
			case *a2a.StreamResponseStatusUpdate:
				seen = append(seen, p.StatusUpdate.Status.State.String())
			case *a2a.StreamResponseArtifactUpdate:
				seen = append(seen, p.ArtifactUpdate.Artifact.Parts[0].Content.(*a2a.PartText).Text)
			}
			mu.Unlock()
		}
		streamed <- nil
	}()
	for i := range 10 {
		select {
		case <-step:
		case <-time.After(10 * time.Second):
			t.Fatalf("the executor took no step %d", i)
		}
	}
	c.stop()
	mu.Lock()
	id := strings.TrimPrefix(seen[0], "task:")
	mu.Unlock()
	_, err = client.GetTask(ctx, &a2a.GetTaskRequest{ID: id})
	if err == nil || !strings.Contains(err.Error(), "the task store is unavailable") {
		t.Errorf("GetTask during the outage: %v", err)
	}
	time.Sleep(lease + lease/2) // every lease runs out, and both sweepers run
	c.start()

	select {
	case err := <-streamed:
		if err != nil {
			t.Fatalf("the stream was told: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the stream did not end")
	}
	var want []string
	want = append(want, "TASK_STATE_WORKING")
	for i := range steps {
		want = append(want, strconv.Itoa(i)+" ")
	}
	want = append(want, "TASK_STATE_COMPLETED")
	mu.Lock()
	got := seen[1:]
	mu.Unlock()
	if !slices.Equal(got, want) {
		t.Fatalf("the stream saw %q,\nwant %q", got, want)
	}
	task, err := client.GetTask(ctx, &a2a.GetTaskRequest{ID: id})
	if err != nil {
		t.Fatal(err)
	}
	// Every step once, in order, joined into one text part.
	if task.Status.State != a2a.TaskStateCompleted || len(task.Artifacts) != 1 || len(task.Artifacts[0].Parts) != 1 ||
		task.Artifacts[0].Parts[0].Content.(*a2a.PartText).Text != strings.Join(want[1:len(want)-1], "") {
		t.Fatalf("the task after the outage: %s", task.AppendJSON(nil))
	}
}
