"""Demo process: a deployed leave approval (the applicant, then the tenant's supervisors; long leaves also
need a second supervisor's sign-off)."""

from __future__ import annotations

from sqlalchemy import select

from atrium.plugins.process.models import ProcessModel, ProcessVersion
from atrium.sdk.context import tenant_scope
from atrium.sdk.db import session, utcnow

KEY = "leave-approval"

XML = """<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC"
    xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:atrium="http://atrium.dev/schema/bpmn"
    id="leave_defs" targetNamespace="http://atrium.dev/bpmn">
  <bpmn:process id="leave_approval" name="Leave approval" isExecutable="true">
    <bpmn:startEvent id="start" name="Start"/>
    <bpmn:userTask id="apply" name="Apply" atrium:assigneeType="starter"/>
    <bpmn:userTask id="approve" name="Supervisor approval" atrium:assigneeType="supervisor"/>
    <bpmn:exclusiveGateway id="long" name="More than 3 days?" default="short"/>
    <bpmn:userTask id="confirm" name="Second approval" atrium:assigneeType="supervisor"/>
    <bpmn:endEvent id="end" name="End"/>
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="apply"/>
    <bpmn:sequenceFlow id="f2" sourceRef="apply" targetRef="approve"/>
    <bpmn:sequenceFlow id="f3" sourceRef="approve" targetRef="long"/>
    <bpmn:sequenceFlow id="days_gt_3" name="days &gt; 3" sourceRef="long" targetRef="confirm">
      <bpmn:conditionExpression>days &gt; 3</bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="short" sourceRef="long" targetRef="end"/>
    <bpmn:sequenceFlow id="f4" sourceRef="confirm" targetRef="end"/>
  </bpmn:process>
  <bpmndi:BPMNDiagram id="leave_diagram">
    <bpmndi:BPMNPlane id="leave_plane" bpmnElement="leave_approval">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start">
        <dc:Bounds x="100" y="120" width="36" height="36"/>
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="apply_di" bpmnElement="apply">
        <dc:Bounds x="180" y="98" width="100" height="80"/>
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="approve_di" bpmnElement="approve">
        <dc:Bounds x="330" y="98" width="100" height="80"/>
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="long_di" bpmnElement="long" isMarkerVisible="true">
        <dc:Bounds x="480" y="113" width="50" height="50"/>
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="confirm_di" bpmnElement="confirm">
        <dc:Bounds x="580" y="220" width="100" height="80"/>
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="end_di" bpmnElement="end">
        <dc:Bounds x="732" y="120" width="36" height="36"/>
      </bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="f1_di" bpmnElement="f1">
        <di:waypoint x="136" y="138"/>
        <di:waypoint x="180" y="138"/>
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="f2_di" bpmnElement="f2">
        <di:waypoint x="280" y="138"/>
        <di:waypoint x="330" y="138"/>
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="f3_di" bpmnElement="f3">
        <di:waypoint x="430" y="138"/>
        <di:waypoint x="480" y="138"/>
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="days_gt_3_di" bpmnElement="days_gt_3">
        <di:waypoint x="505" y="163"/>
        <di:waypoint x="505" y="260"/>
        <di:waypoint x="580" y="260"/>
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="short_di" bpmnElement="short">
        <di:waypoint x="530" y="138"/>
        <di:waypoint x="732" y="138"/>
      </bpmndi:BPMNEdge>
      <bpmndi:BPMNEdge id="f4_di" bpmnElement="f4">
        <di:waypoint x="680" y="260"/>
        <di:waypoint x="750" y="260"/>
        <di:waypoint x="750" y="156"/>
      </bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>
"""


def load(tenants: dict[str, int]) -> None:
    for tid in tenants.values():
        with tenant_scope(tid):
            db = session()
            if db.execute(select(ProcessModel.id).where(ProcessModel.key == KEY)).scalar_one_or_none():
                continue
            model = ProcessModel(
                key=KEY, name="Leave approval", category="HR", latest_version=1, deployed_version=1
            )
            db.add(model)
            db.flush()
            db.add(ProcessVersion(model_id=model.id, version=1, xml=XML, deployed_at=utcnow()))
            db.flush()
