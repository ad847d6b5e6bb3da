"""Demo process: a deployed leave approval (the applicant's start form: days, start date, reason; the
applicant's step is done as she starts, then the tenant's supervisors approve; long leaves also need a second
supervisor's sign-off). Every named element (and the process) is labelled in the five languages, so lists,
history and the diagram read in the reader's (`engine.labels`). A tenant whose demo model is an older demo
diagram (any other text, unlabelled ones among them) gets this one as a new deployed version."""

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
    <bpmn:extensionElements>
      <atrium:label lang="zh-cn">请假审批</atrium:label>
      <atrium:label lang="zh-tw">請假審批</atrium:label>
      <atrium:label lang="en-us">Leave approval</atrium:label>
      <atrium:label lang="vi-vn">Duyệt nghỉ phép</atrium:label>
      <atrium:label lang="hu-hu">Szabadság jóváhagyása</atrium:label>
    </bpmn:extensionElements>
    <bpmn:startEvent id="start" name="Start">
      <bpmn:extensionElements>
        <atrium:label lang="zh-cn">开始</atrium:label>
        <atrium:label lang="zh-tw">開始</atrium:label>
        <atrium:label lang="en-us">Start</atrium:label>
        <atrium:label lang="vi-vn">Bắt đầu</atrium:label>
        <atrium:label lang="hu-hu">Kezdés</atrium:label>
        <atrium:formField id="days" type="number" required="true" min="0.5" max="30" label="Days">
          <atrium:label lang="zh-cn">请假天数</atrium:label>
          <atrium:label lang="zh-tw">請假天數</atrium:label>
          <atrium:label lang="en-us">Days</atrium:label>
          <atrium:label lang="vi-vn">Số ngày nghỉ</atrium:label>
          <atrium:label lang="hu-hu">Napok száma</atrium:label>
        </atrium:formField>
        <atrium:formField id="startDate" type="date" required="true" label="Start date">
          <atrium:label lang="zh-cn">开始日期</atrium:label>
          <atrium:label lang="zh-tw">開始日期</atrium:label>
          <atrium:label lang="en-us">Start date</atrium:label>
          <atrium:label lang="vi-vn">Ngày bắt đầu</atrium:label>
          <atrium:label lang="hu-hu">Kezdő nap</atrium:label>
        </atrium:formField>
        <atrium:formField id="reason" type="text" label="Reason">
          <atrium:label lang="zh-cn">请假事由</atrium:label>
          <atrium:label lang="zh-tw">請假事由</atrium:label>
          <atrium:label lang="en-us">Reason</atrium:label>
          <atrium:label lang="vi-vn">Lý do</atrium:label>
          <atrium:label lang="hu-hu">Indoklás</atrium:label>
        </atrium:formField>
      </bpmn:extensionElements>
    </bpmn:startEvent>
    <bpmn:userTask id="apply" name="Apply" atrium:assigneeType="starter" atrium:completeOnStart="true">
      <bpmn:extensionElements>
        <atrium:label lang="zh-cn">提交申请</atrium:label>
        <atrium:label lang="zh-tw">提交申請</atrium:label>
        <atrium:label lang="en-us">Apply</atrium:label>
        <atrium:label lang="vi-vn">Nộp đơn</atrium:label>
        <atrium:label lang="hu-hu">Kérelem beadása</atrium:label>
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:userTask id="approve" name="Supervisor approval" atrium:assigneeType="supervisor">
      <bpmn:extensionElements>
        <atrium:label lang="zh-cn">主管审批</atrium:label>
        <atrium:label lang="zh-tw">主管審批</atrium:label>
        <atrium:label lang="en-us">Supervisor approval</atrium:label>
        <atrium:label lang="vi-vn">Quản lý duyệt</atrium:label>
        <atrium:label lang="hu-hu">Vezetői jóváhagyás</atrium:label>
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:exclusiveGateway id="long" name="More than 3 days?" default="short">
      <bpmn:extensionElements>
        <atrium:label lang="zh-cn">超过3天？</atrium:label>
        <atrium:label lang="zh-tw">超過3天？</atrium:label>
        <atrium:label lang="en-us">More than 3 days?</atrium:label>
        <atrium:label lang="vi-vn">Hơn 3 ngày?</atrium:label>
        <atrium:label lang="hu-hu">Több mint 3 nap?</atrium:label>
      </bpmn:extensionElements>
    </bpmn:exclusiveGateway>
    <bpmn:userTask id="confirm" name="Second approval" atrium:assigneeType="supervisor">
      <bpmn:extensionElements>
        <atrium:label lang="zh-cn">二次审批</atrium:label>
        <atrium:label lang="zh-tw">二次審批</atrium:label>
        <atrium:label lang="en-us">Second approval</atrium:label>
        <atrium:label lang="vi-vn">Duyệt lần hai</atrium:label>
        <atrium:label lang="hu-hu">Második jóváhagyás</atrium:label>
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:endEvent id="end" name="End">
      <bpmn:extensionElements>
        <atrium:label lang="zh-cn">结束</atrium:label>
        <atrium:label lang="zh-tw">結束</atrium:label>
        <atrium:label lang="en-us">End</atrium:label>
        <atrium:label lang="vi-vn">Kết thúc</atrium:label>
        <atrium:label lang="hu-hu">Vége</atrium:label>
      </bpmn:extensionElements>
    </bpmn:endEvent>
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="apply"/>
    <bpmn:sequenceFlow id="f2" sourceRef="apply" targetRef="approve"/>
    <bpmn:sequenceFlow id="f3" sourceRef="approve" targetRef="long"/>
    <bpmn:sequenceFlow id="days_gt_3" name="days &gt; 3" sourceRef="long" targetRef="confirm">
      <bpmn:extensionElements>
        <atrium:label lang="zh-cn">超过3天</atrium:label>
        <atrium:label lang="zh-tw">超過3天</atrium:label>
        <atrium:label lang="en-us">days &gt; 3</atrium:label>
        <atrium:label lang="vi-vn">hơn 3 ngày</atrium:label>
        <atrium:label lang="hu-hu">több mint 3 nap</atrium:label>
      </bpmn:extensionElements>
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
            found = db.execute(select(ProcessModel).where(ProcessModel.key == KEY)).scalar_one_or_none()
            if found is not None:
                _update(found)
                continue
            model = ProcessModel(
                key=KEY, name="Leave approval", category="HR", latest_version=1, deployed_version=1
            )
            db.add(model)
            db.flush()
            db.add(ProcessVersion(model_id=model.id, version=1, xml=XML, deployed_at=utcnow()))
            db.flush()


def _update(model: ProcessModel) -> None:
    """Deploy this diagram as the next version of a demo model that still runs an older demo diagram (made
    by the demo: no author); a model someone has since changed is left alone."""
    db = session()
    latest = db.execute(
        select(ProcessVersion).where(
            ProcessVersion.model_id == model.id, ProcessVersion.version == model.latest_version
        )
    ).scalar_one_or_none()
    if latest is None or latest.xml == XML or latest.created_by is not None or model.created_by is not None:
        return
    if model.deployed_version != latest.version:
        return
    model.latest_version += 1
    model.deployed_version = model.latest_version
    db.add(ProcessVersion(model_id=model.id, version=model.latest_version, xml=XML, deployed_at=utcnow()))
    db.flush()
