package a2atask_test

import (
	"context"
	"fmt"
	"log"
	"net/http/httptest"

	a2a "github.com/agui-gen/agui-gen/gen/a2a"
	"github.com/agui-gen/agui-gen/gen/a2a/a2atask"
)

// The task runtime serves every task RPC on an executor and a store: a
// message starts or continues a task, the executor's calls change it
// (status, artifacts, a question for the user), and every change is an
// event that streams, resumes and survives in the store (NewMemory here;
// sqlitestore and pgstore keep them in a database, for restarts and
// replicas).
func ExampleNew() {
	exec := a2atask.ExecutorFunc(func(ctx context.Context, run *a2atask.Run) error {
		if len(run.Task().History) == 1 {
			return run.RequireInput(run.AgentMessage(&a2a.Part{Content: &a2a.PartText{Text: "Which city?"}}))
		}
		run.Working(nil)
		answer := []*a2a.Part{{Content: &a2a.PartText{Text: "sunny"}}}
		return run.Artifact(&a2a.Artifact{ArtifactID: "answer", Parts: answer}, false, true)
	}) // returning nil completes the task; Reject and Fail are there too
	rt := a2atask.New(exec, a2atask.NewMemory())
	defer rt.Close()
	srv := httptest.NewUnstartedServer(nil)
	card := &a2a.AgentCard{Name: "weather", Description: "Knows the weather.", Version: "1.0.0",
		SupportedInterfaces: a2a.Interfaces("http://" + srv.Listener.Addr().String()),
		Capabilities:        &a2a.AgentCapabilities{}, DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []*a2a.AgentSkill{{ID: "weather", Name: "Weather", Description: "Tells the weather.", Tags: []string{"weather"}}}}
	h, err := a2a.NewHandler(a2a.BindA2AService(rt), card)
	if err != nil {
		log.Fatal(err)
	}
	srv.Config.Handler = h
	srv.Start()
	defer srv.Close()
	client := a2a.NewA2AServiceClient(a2a.NewJSONRPCTransport(srv.URL))

	ctx := context.Background()
	ask := func(text, taskID string) *a2a.Task {
		msg := &a2a.Message{MessageID: text, TaskID: taskID, Role: a2a.RoleUser, Parts: []*a2a.Part{{Content: &a2a.PartText{Text: text}}}}
		resp, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg})
		if err != nil {
			log.Fatal(err)
		}
		return resp.Payload.(*a2a.SendMessageResponseTask).Task
	}
	task := ask("What is the weather?", "")
	fmt.Println(task.Status.State, task.Status.Message.Parts[0].Content.(*a2a.PartText).Text)
	task = ask("Paris", task.ID)
	fmt.Println(task.Status.State, task.Artifacts[0].Parts[0].Content.(*a2a.PartText).Text)
	// Output:
	// TASK_STATE_INPUT_REQUIRED Which city?
	// TASK_STATE_COMPLETED sunny
}
