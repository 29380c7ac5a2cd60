"""A sample with deliberate mistakes that ``mypy --strict`` must reject (test/integration/sdk-python.test.ts):
a number where the API takes a string, a parameter the operation does not have, and a field the model
does not have."""

from svc_assistant import Svc

svc = Svc(api_key="svc_sk_test_x")
call = svc.calls.create(to=14155550123, agent_id="agent_x")
svc.agents.create(name="A", instructions="B", temperature_typo=0.2)
print(call.duration_minutes)
