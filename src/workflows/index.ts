/** Every workflow the worker runs (the worker's `workflowsPath`); one file per workflow. */
export { callWorkflow } from './call';
export { webhookDeliveryWorkflow } from './webhook-delivery';
