// Serves an @a2a-js/sdk agent on loopback for the bridge tests
// (interop/bridge_test.go): JSON-RPC at /a2a/jsonrpc, HTTP+JSON at
// /a2a/rest, the card at /.well-known/agent-card.json. What it does
// depends on the message's text:
//   "weather": thinks, calls a tool (data parts with Hector's agui_* hints
//              in @ag-ui/a2a's tool-call shape), streams its answer as an
//              artifact in two chunks, and completes;
//   "ask":     asks "Which colour?" (input-required); the follow-up
//              completes with "You chose <answer>.";
//   "slow":    works until canceled, then prints "CANCELED <task id>".
// Prints the base URL, then serves until stdin closes.
//
//   node a2a-bridge-server.mjs
import { Role, TaskState } from '@a2a-js/sdk';
import { serveAgent } from './a2a-js-serve.mjs';

const now = () => new Date().toISOString();
const textOf = (m) => m.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
const text = (value, metadata) => ({ content: { $case: 'text', value }, metadata, filename: '', mediaType: 'text/plain' });
const data = (value, metadata) => ({ content: { $case: 'data', value }, metadata, filename: '', mediaType: 'application/json' });
const agentMessage = (taskId, contextId, parts) => ({
  messageId: `${taskId}-${Math.random().toString(36).slice(2)}`, contextId, taskId, role: Role.ROLE_AGENT, parts,
  metadata: undefined, extensions: [], referenceTaskIds: [],
});
const status = (taskId, contextId, state, message) => ({
  kind: 'statusUpdate', data: { taskId, contextId, status: { state, message, timestamp: now() }, metadata: undefined },
});
const artifact = (taskId, contextId, artifactId, value, append, lastChunk) => ({
  kind: 'artifactUpdate',
  data: { taskId, contextId, artifact: { artifactId, name: 'answer', description: '', parts: [text(value)], metadata: undefined, extensions: [] }, append, lastChunk, metadata: undefined },
});

const running = new Map(); // task id -> resolve of its wait

const executor = {
  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const user = ctx.userMessage;
    const task = ctx.task ?? { id: taskId, contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() }, artifacts: [], history: [user], metadata: undefined };
    bus.publish({ kind: 'task', data: task });
    if (ctx.task) { // the answer to "ask"
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_WORKING));
      bus.publish(artifact(taskId, contextId, 'choice', `You chose ${textOf(user)}.`, false, true));
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_COMPLETED));
      bus.finished();
      return;
    }
    switch (textOf(user)) {
      case 'weather':
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_WORKING, agentMessage(taskId, contextId, [
          text('Looking it up.', { agui_event_type: 'thinking', agui_block_type: 'thinking', agui_block_id: 'think-1', agui_block_index: 0 }),
        ])));
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_WORKING, agentMessage(taskId, contextId, [
          data({ type: 'tool-call', id: 'call-1', name: 'lookup', arguments: { city: 'Paris' } }, { agui_event_type: 'tool_call', agui_tool_call_id: 'call-1', agui_tool_name: 'lookup' }),
          data({ type: 'tool-result', toolCallId: 'call-1', payload: 'sunny, 21°C' }, { agui_event_type: 'tool_call', agui_tool_call_id: 'call-1', agui_is_error: false }),
        ])));
        bus.publish(artifact(taskId, contextId, 'forecast', 'It is sunny ', false, false));
        bus.publish(artifact(taskId, contextId, 'forecast', 'in Paris.', true, true));
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_COMPLETED));
        break;
      case 'ask':
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage(taskId, contextId, [text('Which colour?')])));
        break;
      case 'slow':
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_WORKING));
        await new Promise((resolve) => running.set(taskId, resolve));
        return; // cancelTask finishes the bus
      default:
        bus.publish(status(taskId, contextId, TaskState.TASK_STATE_REJECTED));
    }
    bus.finished();
  },
  async cancelTask(taskId, bus) {
    console.log(`CANCELED ${taskId}`);
    running.get(taskId)?.();
    running.delete(taskId);
    bus.publish(status(taskId, '', TaskState.TASK_STATE_CANCELED));
    bus.finished();
  },
};

serveAgent({ name: 'js-weather', description: 'Knows the weather.', skill: { id: 'weather', name: 'Weather', description: 'Tells the weather.', tags: ['weather'] } }, executor);
