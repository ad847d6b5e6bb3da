"""The workflow engine: BPMN rules, expressions, SpiffWorkflow, step reads and writes, HTTP tasks, timers."""
