/**
 * The assistant's system prompt for a call, built from the agent's instructions and the call's `context`
 * (DESIGN.md section 6). Pure and deterministic: used inside the workflow.
 */
import type { CallWorkflowInput } from '../shared/calls';

/**
 * Returns the system message for a call.
 * @param input the call workflow's input (agent snapshot, `to`, `context`)
 */
export function callSystemPrompt(input: Pick<CallWorkflowInput, 'agent' | 'to' | 'context'>): string {
  const parts = [
    input.agent.instructions.trim(),
    '',
    `You are "${input.agent.name}", speaking on a phone call with ${input.to}. Your words are read aloud: ` +
      'answer in one to three short sentences, no lists or markup.',
    'Call the tool end_call when the conversation is over (after saying goodbye), and transfer_call when the ' +
      'caller asks for a person or you cannot help.',
  ];
  if (input.agent.transfer_to) parts.push(`Transfer destination: ${input.agent.transfer_to}`);
  if (Object.keys(input.context).length > 0) {
    parts.push('', 'Facts for this call (use them; do not read them out verbatim):', JSON.stringify(input.context, null, 2));
  }
  return parts.join('\n');
}
