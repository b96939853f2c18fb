# A synthetic feature for the tests of the runner (runner_test.go): each
# query is answered by the fake engine there, some rightly, some wrongly.
Feature: Runner

  Background:
    Given an empty graph

  Scenario: [1] Passes with rows in any order
    And having executed:
      """
      CREATE (:A {name: 'a'}), (:A {name: 'b'})
      """
    When executing query:
      """
      MATCH (n:A) RETURN n, n.name AS name
      """
    Then the result should be, in any order:
      | n                   | name |
      | (:A {name: 'a'})    | 'a'  |
      | (:A {name: 'b'})    | 'b'  |
    And no side effects

  Scenario: [2] Fails by a wrong row
    When executing query:
      """
      RETURN 'wrong row' AS x
      """
    Then the result should be, in any order:
      | x       |
      | 'right' |
    And no side effects

  Scenario: [3] Fails by a wrong order
    When executing query:
      """
      UNWIND [2, 1] AS x RETURN x ORDER BY x
      """
    Then the result should be, in order:
      | x |
      | 1 |
      | 2 |
    And no side effects

  Scenario: [4] Passes with side effects
    When executing query:
      """
      CREATE (:B {k: 1})
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes      | 1 |
      | +labels     | 1 |
      | +properties | 1 |

  Scenario: [5] Fails by wrong side effects
    When executing query:
      """
      CREATE (:B {k: 2})
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes  | 1 |
      | +labels | 1 |

  Scenario: [6] Matches the expected error
    When executing query:
      """
      RETURN toInteger([]) AS x
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

  Scenario: [7] Fails by another error
    When executing query:
      """
      RETURN abs('a') AS x
      """
    Then a TypeError should be raised at runtime: InvalidArgumentValue

  Scenario: [8] Matches an error without detail by its category
    When executing query:
      """
      RETURN undefined AS x
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: [9] Is skipped on NotSupported
    When executing query:
      """
      CALL db.labels()
      """
    Then the result should be empty

  Scenario: [10] Fails by a panic
    When executing query:
      """
      RETURN panic AS x
      """
    Then the result should be empty

  Scenario: [11] Fails by a timeout
    When executing query:
      """
      RETURN forever AS x
      """
    Then the result should be empty

  Scenario Outline: [12] Passes parameters <v>
    And parameters are:
      | p | <v> |
    When executing query:
      """
      RETURN $p AS p
      """
    Then the result should be, in any order:
      | p        |
      | <result> |
    And no side effects

    Examples:
      | v               | result          |
      | 1               | 1               |
      | 'it\'s'         | 'it\'s'         |
      | {b: [1.0], a: 2} | {a: 2, b: [1.0]} |

  Scenario: [13] Checks a control query
    When executing query:
      """
      CREATE (:A)-[:T]->(:B)
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes         | 2 |
      | +relationships | 1 |
      | +labels        | 2 |
    When executing control query:
      """
      MATCH (a)-[r]->(b) RETURN a, r, b
      """
    Then the result should be (ignoring element order for lists):
      | a    | r    | b    |
      | (:A) | [:T] | (:B) |

  @ignore
  Scenario: [14] Is skipped for its tag
    When executing query:
      """
      RETURN 1 AS x
      """
    Then the result should be empty

  Scenario: [15] Fails on an unknown step
    When executing query:
      """
      RETURN 1 AS x
      """
    Then the result should be sorted

  Scenario: [16] Fails when a setup query fails
    And having executed:
      """
      CREATE (
      """
    When executing query:
      """
      RETURN 1 AS x
      """
    Then the result should be empty

  Scenario: [17] Fails when an expected error is not raised
    When executing query:
      """
      RETURN 1 AS x
      """
    Then an ArithmeticError should be raised at runtime: DivisionByZero

  Scenario: [18] Fails on an unexpected error
    When executing query:
      """
      RETURN abs('a') AS x
      """
    Then the result should be empty

  Scenario: [19] Passes with lists in any order
    When executing query:
      """
      RETURN [[3, 1], [2]] AS l
      """
    Then the result should be, in order (ignoring element order for lists):
      | l               |
      | [[2], [1, 3]]   |
    And no side effects

  Scenario: [20] Fails by another error category
    When executing query:
      """
      RETURN abs('a') AS x
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

  Scenario: [21] Fails by an error without a category
    When executing query:
      """
      RETURN plain AS x
      """
    Then a TypeError should be raised at runtime: InvalidArgumentType
