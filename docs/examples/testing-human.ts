import { createDeepAgent, HumanChatModel } from "delve";

// Another program reads /tmp/play/request-1.json and writes /tmp/play/reply-1.json.
export const agent = createDeepAgent({ model: new HumanChatModel({ dir: "/tmp/play" }) });
