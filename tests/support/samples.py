"""A small module several tests document: two functions and a public class with a method."""

GEO = '''\
def area(r):
    """Area of a circle."""
    return 3 * r * r


def perimeter(r):
    return 6 * r


class Shape:
    def scale(self, k):
        return k
'''
