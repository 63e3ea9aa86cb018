"""`hard`: placeholder while being written."""
from .medium import MediumAgent


class HardAgent(MediumAgent):
    level = "hard"
    plan_orders = 4
