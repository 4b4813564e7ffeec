// turnlens/client (also served as agentswf/client): the Client a program's handler takes, its
// calls and results, and the ClientError it throws. A test passes fakeClient() from agentswf/testing.

export { ClientError, type ClientErrorCode } from "./clientError.ts";
export type {
  AnyWorkflow,
  Client,
  EmitCall,
  EmitDid,
  EmitResult,
  EmitWhy,
  InboxCall,
  InboxItem,
  ReplyCall,
  Rest,
  RestState,
  RunState,
  StartCall,
  StartDid,
  StartResult,
  WaitCall,
} from "./types.ts";
